; CDXTheme Theme Builder installer (NSIS 3.08, Modern UI 2): 64-bit, per user.
; Built by scripts/windows-installer.sh, which passes:
;   -DVERSION=0.1.0  -DEXE=<abs path of cdxtheme.exe>  -DCOM=<abs path of cdxtheme.com>
;   -DBUN=<abs path of bun.exe, the agent runtime>  -DOUTFILE=<abs path of the installer>
;   -DSIGN=<command signing "%1" in place>  (when a certificate is given)
; makensis runs in this file's directory, so icon.ico is found beside it.
;
; Per user: no UAC prompt, no admin rights, nothing written outside the
; user's profile ($LOCALAPPDATA\Programs, as VS Code's and Chrome's user
; installers do; HKCU for the Add/Remove Programs entry). The app itself
; keeps everything it writes in the profile too.

Unicode true
; The amd64 stub: a native 64-bit installer (Debian's nsis ships it).
Target amd64-unicode
ManifestDPIAware true
SetCompressor /SOLID lzma

!ifndef VERSION
  !error "pass -DVERSION=x.y.z"
!endif
!ifndef EXE
  !error "pass -DEXE=path\to\cdxtheme.exe"
!endif
!ifndef COM
  !error "pass -DCOM=path\to\cdxtheme.com (the console command line)"
!endif
!ifndef BUN
  !error "pass -DBUN=path\to\bun.exe (the agent runtime the app runs the adapter with)"
!endif
!ifndef OUTFILE
  !define OUTFILE "cdxtheme-${VERSION}-windows-amd64-setup.exe"
!endif
; The uninstaller is written inside makensis; this signs it before it is
; packed, so what Windows runs on uninstall carries the signature too.
!ifdef SIGN
  !uninstfinalize '${SIGN} "%1"'
!endif

!define PRODUCT "CDXTheme Theme Builder"
!define COMPANY "CDXTheme"
!define APPEXE "cdxtheme.exe"
!define UNINSTKEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\CDXTheme"
; The Evergreen WebView2 Runtime registers itself under this client id.
!define WEBVIEW2_GUID "{F3017226-FE2A-4295-8BDF-00C3A9A7E4C5}"

Name "${PRODUCT}"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\CDXTheme"
InstallDirRegKey HKCU "${UNINSTKEY}" "InstallLocation"
RequestExecutionLevel user
ShowInstDetails show
BrandingText "${PRODUCT} ${VERSION}"

VIProductVersion "${VERSION}.0"
VIFileVersion "${VERSION}.0"
VIAddVersionKey "ProductName" "${PRODUCT}"
VIAddVersionKey "CompanyName" "${COMPANY}"
VIAddVersionKey "FileDescription" "${PRODUCT} Setup"
VIAddVersionKey "ProductVersion" "${VERSION}"
VIAddVersionKey "FileVersion" "${VERSION}"
VIAddVersionKey "LegalCopyright" "${COMPANY}"

!include "MUI2.nsh"
!include "LogicLib.nsh"
!include "StrFunc.nsh"
!include "WinMessages.nsh"
${StrStr}
${UnStrRep}

!define MUI_ICON "icon.ico"
!define MUI_UNICON "icon.ico"
!define MUI_ABORTWARNING
!define MUI_FINISHPAGE_RUN "$INSTDIR\${APPEXE}"
!define MUI_FINISHPAGE_RUN_TEXT "Start ${PRODUCT}"

!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

Function .onInit
  SetShellVarContext current
FunctionEnd

Function un.onInit
  SetShellVarContext current
FunctionEnd

; The app draws its window with Microsoft Edge WebView2. Windows 11 ships it;
; older systems may not, and the installer cannot fetch it offline, so it says
; where to get it instead of leaving the user with a window that never opens.
Function CheckWebView2
  ReadRegStr $0 HKLM "SOFTWARE\WOW6432Node\Microsoft\EdgeUpdate\Clients\${WEBVIEW2_GUID}" "pv"
  ${If} $0 == ""
  ${OrIf} $0 == "0.0.0.0"
    ReadRegStr $0 HKCU "Software\Microsoft\EdgeUpdate\Clients\${WEBVIEW2_GUID}" "pv"
  ${EndIf}
  ${If} $0 == ""
  ${OrIf} $0 == "0.0.0.0"
    DetailPrint "Microsoft Edge WebView2 Runtime not found."
    MessageBox MB_OK|MB_ICONINFORMATION "${PRODUCT} needs the Microsoft Edge WebView2 Runtime, which was not found.$\r$\n$\r$\nInstall the Evergreen WebView2 Runtime from Microsoft (search for $\"WebView2 Runtime download$\") before starting the app. Installation continues now."
  ${Else}
    DetailPrint "Microsoft Edge WebView2 Runtime $0 found."
  ${EndIf}
FunctionEnd

; cdxtheme.com on the user's PATH, so `cdxtheme help` works in any new cmd or
; PowerShell. NSIS strings hold NSIS_MAX_STRLEN characters: a longer PATH
; read here would come back cut, so it is left as it is and the line to add
; is shown instead of writing a shortened PATH over the user's.
Function AddToPath
  ReadRegStr $0 HKCU "Environment" "Path"
  StrLen $1 "$0$INSTDIR"
  IntOp $2 ${NSIS_MAX_STRLEN} - 2
  ${If} $1 >= $2
    DetailPrint "Your PATH is too long to change here; add $INSTDIR to it to run cdxtheme from a console."
    Return
  ${EndIf}
  ${StrStr} $1 ";$0;" ";$INSTDIR;"
  ${If} $1 != ""
    Return
  ${EndIf}
  ${If} $0 == ""
    StrCpy $0 "$INSTDIR"
  ${Else}
    StrCpy $0 "$0;$INSTDIR"
  ${EndIf}
  WriteRegExpandStr HKCU "Environment" "Path" "$0"
  SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=5000
FunctionEnd

Function un.RemoveFromPath
  ReadRegStr $0 HKCU "Environment" "Path"
  StrLen $1 $0
  IntOp $2 ${NSIS_MAX_STRLEN} - 2
  ${If} $1 >= $2
    Return ; read cut short: never written back
  ${EndIf}
  ${UnStrRep} $0 ";$0;" ";$INSTDIR;" ";"
  StrCpy $0 $0 "" 1
  StrCpy $0 $0 -1
  ${If} $0 == ""
    DeleteRegValue HKCU "Environment" "Path"
  ${Else}
    WriteRegExpandStr HKCU "Environment" "Path" "$0"
  ${EndIf}
  SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=5000
FunctionEnd

Section "Install"
  Call CheckWebView2

  SetOutPath "$INSTDIR"
  File "/oname=${APPEXE}" "${EXE}"
  File "/oname=cdxtheme.com" "${COM}"
  ; Beside the app, where core/agent looks for it: the app runs the Codex
  ; adapter with it when no codex-acp is on PATH.
  File "/oname=bun.exe" "${BUN}"
  WriteUninstaller "$INSTDIR\uninstall.exe"

  Call AddToPath

  CreateShortcut "$SMPROGRAMS\${PRODUCT}.lnk" "$INSTDIR\${APPEXE}" "" "$INSTDIR\${APPEXE}" 0

  WriteRegStr HKCU "${UNINSTKEY}" "DisplayName" "${PRODUCT}"
  WriteRegStr HKCU "${UNINSTKEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINSTKEY}" "Publisher" "${COMPANY}"
  WriteRegStr HKCU "${UNINSTKEY}" "DisplayIcon" "$INSTDIR\${APPEXE}"
  WriteRegStr HKCU "${UNINSTKEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTKEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${UNINSTKEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINSTKEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINSTKEY}" "NoRepair" 1
SectionEnd

; User data (settings, theme workspaces, the installed adapter) lives in the
; user's profile and is kept: uninstalling the program must not delete themes
; someone built.
Section "Uninstall"
  Call un.RemoveFromPath
  Delete "$SMPROGRAMS\${PRODUCT}.lnk"
  Delete "$INSTDIR\${APPEXE}"
  Delete "$INSTDIR\cdxtheme.com"
  Delete "$INSTDIR\bun.exe"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  DeleteRegKey HKCU "${UNINSTKEY}"
SectionEnd

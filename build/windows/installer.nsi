; CDXTheme Theme Builder installer (NSIS 3, Modern UI 2).
; Built by scripts/package-windows.sh, which passes:
;   -DVERSION=0.1.0  -DEXE=<abs path of cdxtheme.exe>  -DCOM=<abs path of cdxtheme.com>
;   -DOUTFILE=<abs path of the installer>
; makensis runs in this file's directory, so icon.ico is found beside it.

Unicode true
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
!ifndef OUTFILE
  !define OUTFILE "cdxtheme-${VERSION}-windows-amd64-setup.exe"
!endif

!define PRODUCT "CDXTheme Theme Builder"
!define COMPANY "CDXTheme"
!define APPEXE "cdxtheme.exe"
!define UNINSTKEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\CDXTheme"
; The Evergreen WebView2 Runtime registers itself under this client id.
!define WEBVIEW2_GUID "{F3017226-FE2A-4295-8BDF-00C3A9A7E4C5}"

Name "${PRODUCT}"
OutFile "${OUTFILE}"
InstallDir "$PROGRAMFILES64\${PRODUCT}"
InstallDirRegKey HKLM "${UNINSTKEY}" "InstallLocation"
RequestExecutionLevel admin
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
!include "x64.nsh"

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
  ${IfNot} ${RunningX64}
    MessageBox MB_OK|MB_ICONSTOP "${PRODUCT} needs 64-bit Windows."
    Abort
  ${EndIf}
  SetRegView 64
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

Section "Install"
  SetShellVarContext all
  Call CheckWebView2

  SetOutPath "$INSTDIR"
  File "/oname=${APPEXE}" "${EXE}"
  File "/oname=cdxtheme.com" "${COM}"
  WriteUninstaller "$INSTDIR\uninstall.exe"

  CreateShortcut "$SMPROGRAMS\${PRODUCT}.lnk" "$INSTDIR\${APPEXE}" "" "$INSTDIR\${APPEXE}" 0

  WriteRegStr HKLM "${UNINSTKEY}" "DisplayName" "${PRODUCT}"
  WriteRegStr HKLM "${UNINSTKEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKLM "${UNINSTKEY}" "Publisher" "${COMPANY}"
  WriteRegStr HKLM "${UNINSTKEY}" "DisplayIcon" "$INSTDIR\${APPEXE}"
  WriteRegStr HKLM "${UNINSTKEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKLM "${UNINSTKEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKLM "${UNINSTKEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKLM "${UNINSTKEY}" "NoModify" 1
  WriteRegDWORD HKLM "${UNINSTKEY}" "NoRepair" 1
SectionEnd

; User data (settings, theme workspaces) lives in the user's profile and is
; kept: uninstalling the program must not delete themes someone built.
Section "Uninstall"
  SetShellVarContext all
  SetRegView 64
  Delete "$SMPROGRAMS\${PRODUCT}.lnk"
  Delete "$INSTDIR\${APPEXE}"
  Delete "$INSTDIR\cdxtheme.com"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  DeleteRegKey HKLM "${UNINSTKEY}"
SectionEnd

package scopes

import (
	"math"
	"strconv"
	"strings"

	"cdxtheme/core/theme"
)

// vscodeColorTable maps theme roles to VS Code workbench colour ids (the
// "colors" of a colour theme; the ids are those of VS Code's colour
// registry, core/targets/testdata/vocab/vscode-colors.txt): one line per role, "role
// id id …". Every id appears once; the exporter adds nothing of its own.
const vscodeColorTable = `
ui.text foreground editor.foreground strongForeground sideBar.foreground sideBarTitle.foreground sideBarSectionHeader.foreground activityBar.foreground activityBar.activeFocusBorder activityBarTop.foreground titleBar.activeForeground commandCenter.foreground commandCenter.activeForeground panelTitle.activeForeground panelSectionHeader.foreground input.foreground dropdown.foreground list.activeSelectionForeground list.activeSelectionIconForeground list.inactiveSelectionForeground list.inactiveSelectionIconForeground list.focusForeground list.hoverForeground tab.activeForeground tab.selectedForeground tab.hoverForeground tab.unfocusedHoverForeground editorWidget.foreground editorHoverWidget.foreground editorSuggestWidget.foreground editorSuggestWidget.selectedForeground editorSuggestWidget.selectedIconForeground editorActionList.foreground editorActionList.focusForeground menu.foreground menu.selectionForeground menubar.selectionForeground quickInput.foreground quickInputList.focusForeground quickInputList.focusIconForeground notifications.foreground notificationCenterHeader.foreground peekViewTitleLabel.foreground peekViewResult.fileForeground peekViewResult.selectionForeground keybindingLabel.foreground settings.headerForeground settings.textInputForeground settings.numberInputForeground settings.dropdownForeground settings.checkboxForeground settings.settingsHeaderHoverForeground checkbox.foreground inputOption.activeForeground radio.activeForeground statusBarItem.hoverForeground breadcrumb.focusForeground breadcrumb.activeSelectionForeground banner.foreground editorGroup.dropIntoPromptForeground debugView.stateLabelForeground charts.foreground icon.foreground walkthrough.stepTitle.foreground terminal.foreground textPreformat.foreground tab.unfocusedActiveForeground
ui.mutedText descriptionForeground disabledForeground activityBar.inactiveForeground activityBarTop.inactiveForeground titleBar.inactiveForeground commandCenter.inactiveForeground panelTitle.inactiveForeground tab.inactiveForeground tab.unfocusedInactiveForeground input.placeholderForeground settings.modifiedItemIndicator list.deemphasizedForeground breadcrumb.foreground statusBar.foreground editorCodeLens.foreground editorSuggestWidgetStatus.foreground peekViewTitleDescription.foreground peekViewResult.lineForeground pickerGroup.foreground debugConsole.sourceForeground search.resultsInfoForeground terminal.initialHintForeground editorGhostText.foreground editor.foldPlaceholderForeground editor.placeholder.foreground checkbox.disabled.foreground radio.inactiveForeground textSeparator.foreground tree.indentGuidesStroke keybindingLabel.bottomBorder charts.lines editorLineNumber.dimmedForeground testing.iconUnset testing.iconSkipped debugIcon.breakpointDisabledForeground debugIcon.breakpointUnverifiedForeground debugTokenExpression.type commentsView.resolvedIcon scmGraph.historyItemHoverLabelForeground
ui.background editor.background editorPane.background editorGroup.emptyBackground panel.background terminal.background tab.activeBackground tab.unfocusedActiveBackground tab.selectedBackground breadcrumb.background minimap.background peekViewEditor.background peekViewEditorGutter.background peekViewEditorStickyScroll.background peekViewEditorStickyScrollGutter.background editorStickyScroll.background editorStickyScrollGutter.background outputView.background outputViewStickyScroll.background multiDiffEditor.background notebook.editorBackground notebook.cellEditorBackground welcomePage.background walkThrough.embeddedEditorBackground statusBar.noFolderBackground panelStickyScroll.background terminalStickyScroll.background editorGroupHeader.noTabsBackground
ui.surface sideBar.background sideBarTitle.background sideBarSectionHeader.background sideBarStickyScroll.background activityBar.background activityBarTop.background titleBar.activeBackground titleBar.inactiveBackground statusBar.background editorGroupHeader.tabsBackground tab.inactiveBackground tab.unfocusedInactiveBackground editorWidget.background editorHoverWidget.background editorHoverWidget.statusBarBackground editorSuggestWidget.background editorActionList.background debugToolBar.background debugExceptionWidget.background input.background dropdown.background dropdown.listBackground settings.textInputBackground settings.numberInputBackground settings.dropdownBackground settings.checkboxBackground checkbox.background menu.background quickInput.background quickInputTitle.background notifications.background notificationCenterHeader.background peekViewResult.background peekViewTitle.background breadcrumbPicker.background keybindingLabel.background keybindingTable.headerBackground panelSectionHeader.background multiDiffEditor.headerBackground welcomePage.tileBackground commandCenter.background textCodeBlock.background textBlockQuote.background textPreformat.background editorStickyScrollHover.background terminalStickyScrollHover.background editorMarkerNavigation.background listFilterWidget.background editorGroup.dropIntoPromptBackground banner.background notebook.outputContainerBackgroundColor radio.inactiveBackground tree.tableOddRowsBackground keybindingTable.rowsBackground
ui.accent focusBorder activityBar.activeBorder activityBarTop.activeBorder tab.activeBorderTop tab.selectedBorderTop panelTitle.activeBorder button.background badge.background activityBarBadge.background statusBarItem.remoteBackground statusBarItem.prominentBackground extensionButton.prominentBackground extensionButton.background progressBar.background inputOption.activeBorder list.highlightForeground list.focusHighlightForeground list.focusOutline editorSuggestWidget.highlightForeground editorSuggestWidget.focusHighlightForeground editorHoverWidget.highlightForeground quickInputList.focusHighlightForeground pickerGroup.border peekView.border peekViewResult.matchHighlightBackground settings.focusedRowBorder settings.headerBorder notebook.focusedCellBorder notebook.focusedEditorBorder notebook.selectedCellBorder notebook.cellInsertionIndicator panelTitleBadge.background profileBadge.background sash.hoverBorder editorInfo.foreground minimap.infoHighlight editorMarkerNavigationInfo.background editorMarkerNavigationInfo.headerBackground statusBar.focusBorder statusBarItem.focusBorder commandCenter.activeBorder interactive.activeCodeBorder checkbox.selectBorder radio.activeBorder radio.activeBackground tab.activeModifiedBorder banner.iconForeground editorLightBulbAi.foreground testing.iconQueued testing.runAction debugIcon.startForeground debugIcon.continueForeground debugIcon.stepOverForeground debugIcon.stepIntoForeground debugIcon.stepOutForeground debugIcon.stepBackForeground debugIcon.restartForeground debugIcon.pauseForeground editorGutter.commentGlyphForeground editorGutter.itemGlyphForeground charts.blue scmGraph.foreground1 scmGraph.historyItemRefColor notebookStatusRunningIcon.foreground ports.iconRunningProcessForeground welcomePage.progress.foreground walkThrough.embeddedEditorBackground:skip terminal.tab.activeBorder editorMultiCursor.primary.foreground
editor.accentText button.foreground badge.foreground activityBarBadge.foreground statusBarItem.remoteForeground statusBarItem.prominentForeground extensionButton.prominentForeground extensionButton.foreground panelTitleBadge.foreground profileBadge.foreground inputOption.activeBackground:skip editorMultiCursor.primary.background:skip
editor.hover list.hoverBackground list.focusBackground list.inactiveFocusBackground tab.hoverBackground tab.unfocusedHoverBackground toolbar.hoverBackground toolbar.activeBackground button.secondaryHoverBackground button.hoverBackground:skip statusBarItem.hoverBackground statusBarItem.activeBackground statusBarItem.compactHoverBackground statusBarItem.remoteHoverBackground statusBarItem.prominentHoverBackground extensionButton.hoverBackground extensionButton.prominentHoverBackground settings.rowHoverBackground settings.focusedRowBackground welcomePage.tileHoverBackground notebook.cellHoverBackground notebook.cellStatusBarItemHoverBackground inputOption.hoverBackground radio.inactiveHoverBackground commandCenter.activeBackground titleBar.activeHoverBackground activityBarTop.activeBackground activityBar.activeBackground editorActionList.focusBackground menubar.selectionBackground list.dropBackground sideBar.dropBackground editorGroup.dropBackground panelSection.dropBackground terminal.dropBackground actionBar.toggledBackground
ui.border widget.border contrastBorder:skip editorWidget.border editorWidget.resizeBorder editorHoverWidget.border editorSuggestWidget.border editorGroup.border editorGroupHeader.tabsBorder editorGroupHeader.border tab.border sideBar.border sideBarTitle.border sideBarSectionHeader.border activityBar.border statusBar.border titleBar.border panel.border panelSection.border panelSectionHeader.border panelTitle.border input.border dropdown.border checkbox.border settings.textInputBorder settings.numberInputBorder settings.dropdownBorder settings.checkboxBorder settings.dropdownListBorder menu.border menu.separatorBackground notifications.border notificationCenter.border notificationToast.border editorStickyScroll.border sideBarStickyScroll.border panelStickyScroll.border terminalStickyScroll.border keybindingLabel.border sideBySideEditor.horizontalBorder sideBySideEditor.verticalBorder debugToolBar.border debugExceptionWidget.border diffEditor.border multiDiffEditor.border merge.border editorOverviewRuler.border terminalOverviewRuler.border terminal.border notebook.cellBorderColor notebook.cellToolbarSeparator notebook.outputContainerBorderColor tree.tableColumnsBorder tree.inactiveIndentGuidesStroke welcomePage.tileBorder editorRuler.foreground:skip commandCenter.border commandCenter.inactiveBorder button.border button.secondaryBorder:skip button.separator extensionButton.border extensionButton.separator interactive.inactiveCodeBorder radio.inactiveBorder textBlockQuote.border textPreformat.border profiles.sashBorder settings.sashBorder chatManagement.sashBorder simpleFindWidget.sashBorder window.activeBorder window.inactiveBorder editor.lineHighlightBorder:skip
ui.selection selection.background editor.selectionBackground list.activeSelectionBackground list.inactiveSelectionBackground:skip quickInputList.focusBackground menu.selectionBackground editorSuggestWidget.selectedBackground peekViewResult.selectionBackground terminal.selectionBackground notebook.selectedCellBackground notebook.focusedCellBackground button.secondaryBackground tab.dragAndDropBorder:skip checkbox.selectBackground
editor.inactiveSelection editor.inactiveSelectionBackground list.inactiveSelectionBackground terminal.inactiveSelectionBackground
terminal.selectionText editor.selectionForeground terminal.selectionForeground button.secondaryForeground
editor.lineHighlight editor.lineHighlightBackground editor.inactiveLineHighlightBackground
editor.gutter editorGutter.background
editor.lineNumber editorLineNumber.foreground
editor.lineNumberActive editorLineNumber.activeForeground editorActiveLineNumber.foreground
editor.indentGuide editorIndentGuide.background editorIndentGuide.background1 editorIndentGuide.background2 editorIndentGuide.background3 editorIndentGuide.background4 editorIndentGuide.background5 editorIndentGuide.background6 editorBracketPairGuide.background1:skip
editor.indentGuideActive editorIndentGuide.activeBackground editorIndentGuide.activeBackground1 editorIndentGuide.activeBackground2 editorIndentGuide.activeBackground3 editorIndentGuide.activeBackground4 editorIndentGuide.activeBackground5 editorIndentGuide.activeBackground6
editor.whitespace editorWhitespace.foreground editorWordWrapIndicator.foreground editorGutter.foldingControlForeground
editor.ruler editorRuler.foreground
editor.wordHighlight editor.wordHighlightBackground editor.wordHighlightTextBackground editor.selectionHighlightBackground editor.symbolHighlightBackground editor.hoverHighlightBackground editor.linkedEditingBackground editor.rangeHighlightBackground notebook.symbolHighlightBackground terminal.hoverHighlightBackground editor.snippetTabstopHighlightBackground
ui.warning editor.wordHighlightStrongBackground:skip editorWarning.foreground:skip statusBarItem.warningBackground activityWarningBadge.background gauge.warningForeground charts.yellow charts.orange:skip
editor.findMatch editor.findMatchBackground terminal.findMatchBackground searchEditor.findMatchBackground chat.findMatchBackground
editor.findMatchHighlight editor.findMatchHighlightBackground terminal.findMatchHighlightBackground editor.findRangeHighlightBackground peekViewEditor.matchHighlightBackground list.filterMatchBackground chat.findMatchHighlightBackground
editor.bracketMatch editorBracketMatch.background
editor.bracket1 editorBracketHighlight.foreground1 editorBracketPairGuide.activeBackground1
editor.bracket2 editorBracketHighlight.foreground2 editorBracketPairGuide.activeBackground2
editor.bracket3 editorBracketHighlight.foreground3 editorBracketPairGuide.activeBackground3
editor.bracket4 editorBracketHighlight.foreground4 editorBracketPairGuide.activeBackground4
editor.bracket5 editorBracketHighlight.foreground5 editorBracketPairGuide.activeBackground5
editor.bracket6 editorBracketHighlight.foreground6 editorBracketPairGuide.activeBackground6
editor.inlayHint editorInlayHint.foreground editorInlayHint.typeForeground editorInlayHint.parameterForeground editor.inlineValuesForeground
editor.inlayHintBackground editorInlayHint.background editorInlayHint.typeBackground editorInlayHint.parameterBackground editor.inlineValuesBackground
editor.scrollbar scrollbarSlider.background minimapSlider.background notebookScrollbarSlider.background
editor.shadow widget.shadow scrollbar.shadow editorStickyScroll.shadow sideBarStickyScroll.shadow panelStickyScroll.shadow listFilterWidget.shadow diffEditor.unchangedRegionShadow
ui.mutedText:hover scrollbarSlider.hoverBackground:skip
terminal.cursor editorCursor.foreground terminalCursor.foreground terminalOverviewRuler.cursorForeground editorMultiCursor.primary.foreground:skip
terminal.cursorText editorCursor.background terminalCursor.background
terminal.link textLink.foreground textLink.activeForeground editorLink.activeForeground notificationLink.foreground
diff.added editorGutter.addedBackground minimapGutter.addedBackground editorOverviewRuler.addedForeground diffEditorOverview.insertedForeground gitDecoration.addedResourceForeground chat.linesAddedForeground scmGraph.historyItemHoverAdditionsForeground testing.iconPassed testing.iconPassed.retired notebookStatusSuccessIcon.foreground terminalCommandDecoration.successBackground editorGutter.addedSecondaryBackground charts.green agentsMobileDiff.addedForeground
diff.removed editorGutter.deletedBackground minimapGutter.deletedBackground editorOverviewRuler.deletedForeground diffEditorOverview.removedForeground gitDecoration.deletedResourceForeground chat.linesRemovedForeground scmGraph.historyItemHoverDeletionsForeground editorGutter.deletedSecondaryBackground agentsMobileDiff.deletedForeground
diff.changed editorGutter.modifiedBackground minimapGutter.modifiedBackground editorOverviewRuler.modifiedForeground gitDecoration.modifiedResourceForeground editorGutter.modifiedSecondaryBackground agentsMobileDiff.modifiedForeground
diff.addedLine diffEditor.insertedLineBackground diffEditorGutter.insertedLineBackground inlineEdit.modifiedChangedLineBackground testing.coveredBackground testing.coveredGutterBackground
diff.removedLine diffEditor.removedLineBackground diffEditorGutter.removedLineBackground inlineEdit.originalChangedLineBackground testing.uncoveredBackground testing.uncoveredGutterBackground testing.uncoveredBranchBackground
diff.added:3 gitDecoration.renamedResourceForeground gitDecoration.untrackedResourceForeground
diff.changed:2 gitDecoration.stageModifiedResourceForeground
diff.removed:2 gitDecoration.stageDeletedResourceForeground
diff.changedLine mergeEditor.change.background inlineEdit.modifiedBackground
diff.addedText diffEditor.insertedTextBackground inlineEdit.modifiedChangedTextBackground inlineChatDiff.inserted editorMinimap.inlineChatInserted editorOverviewRuler.inlineChatInserted
diff.removedText diffEditor.removedTextBackground inlineEdit.originalChangedTextBackground inlineChatDiff.removed editorOverviewRuler.inlineChatRemoved inlineEdit.originalBackground
diff.changedText mergeEditor.change.word.background mergeEditor.changeBase.word.background
diff.mergeCurrent merge.currentContentBackground mergeEditor.conflict.input1.background
diff.mergeCurrentHeader merge.currentHeaderBackground editorOverviewRuler.currentContentForeground
diff.mergeIncoming merge.incomingContentBackground mergeEditor.conflict.input2.background
diff.mergeIncomingHeader merge.incomingHeaderBackground editorOverviewRuler.incomingContentForeground
diff.mergeBase merge.commonContentBackground mergeEditor.changeBase.background mergeEditor.conflictingLines.background
diff.mergeBaseHeader merge.commonHeaderBackground editorOverviewRuler.commonContentForeground
diagnostic.error errorForeground editorError.foreground list.errorForeground editorOverviewRuler.errorForeground minimap.errorHighlight problemsErrorIcon.foreground notificationsErrorIcon.foreground inputValidation.errorBorder debugConsole.errorForeground editorMarkerNavigationError.background statusBarItem.errorBackground activityErrorBadge.background gauge.errorForeground testing.iconFailed testing.iconFailed.retired testing.iconErrored testing.iconErrored.retired testing.message.error.badgeBackground notebookStatusErrorIcon.foreground terminalCommandDecoration.errorBackground debugIcon.breakpointForeground debugIcon.stopForeground debugIcon.disconnectForeground debugTokenExpression.error debugView.exceptionLabelBackground charts.red list.invalidItemForeground editorUnicodeHighlight.border testing.peekBorder testing.messagePeekBorder
diagnostic.warning editorWarning.foreground list.warningForeground editorOverviewRuler.warningForeground minimap.warningHighlight problemsWarningIcon.foreground notificationsWarningIcon.foreground inputValidation.warningBorder debugConsole.warningForeground editorMarkerNavigationWarning.background editorLightBulb.foreground debugIcon.breakpointCurrentStackframeForeground editorOverviewRuler.findMatchForeground terminalOverviewRuler.findMatchForeground minimap.findMatchHighlight
diagnostic.info editorOverviewRuler.infoForeground problemsInfoIcon.foreground notificationsInfoIcon.foreground inputValidation.infoBorder debugConsole.infoForeground testing.message.info.decorationForeground editorLightBulbAutoFix.foreground debugIcon.breakpointStackframeForeground
diagnostic.hint editorHint.foreground
diagnostic.unnecessary editorUnnecessaryCode.border
ui.success statusBarItem.remoteHoverForeground:skip
ui.error inputValidation.errorBackground:skip
editor.hover:2 scrollbarSlider.hoverBackground minimapSlider.hoverBackground notebookScrollbarSlider.hoverBackground
ui.selection:2 scrollbarSlider.activeBackground minimapSlider.activeBackground notebookScrollbarSlider.activeBackground minimap.selectionHighlight minimap.selectionOccurrenceHighlight editorOverviewRuler.selectionHighlightForeground editorOverviewRuler.wordHighlightForeground editorOverviewRuler.wordHighlightStrongForeground editorOverviewRuler.wordHighlightTextForeground editorOverviewRuler.rangeHighlightForeground editorOverviewRuler.bracketMatchForeground
ui.surface:2 statusBar.debuggingBackground:skip
syntax.keyword symbolIcon.keywordForeground debugTokenExpression.boolean:skip
syntax.string symbolIcon.stringForeground debugTokenExpression.string symbolIcon.textForeground
syntax.number symbolIcon.numberForeground debugTokenExpression.number symbolIcon.unitForeground
syntax.boolean symbolIcon.booleanForeground debugTokenExpression.boolean
syntax.constant symbolIcon.constantForeground symbolIcon.enumeratorMemberForeground symbolIcon.nullForeground debugTokenExpression.value symbolIcon.colorForeground
syntax.function symbolIcon.functionForeground symbolIcon.eventForeground terminalSymbolIcon.methodForeground
syntax.method symbolIcon.methodForeground
syntax.constructor symbolIcon.constructorForeground
syntax.type symbolIcon.classForeground symbolIcon.structForeground symbolIcon.enumeratorForeground symbolIcon.interfaceForeground symbolIcon.typeParameterForeground symbolIcon.objectForeground
syntax.namespace symbolIcon.namespaceForeground symbolIcon.moduleForeground symbolIcon.packageForeground
syntax.variable symbolIcon.variableForeground debugTokenExpression.name symbolIcon.referenceForeground terminalSymbolIcon.argumentForeground
syntax.property symbolIcon.propertyForeground symbolIcon.fieldForeground symbolIcon.keyForeground
syntax.operator symbolIcon.operatorForeground
syntax.punctuation symbolIcon.arrayForeground
syntax.macro symbolIcon.snippetForeground
syntax.tag terminalSymbolIcon.tagForeground
syntax.quote markdownAlert.note.foreground:skip
syntax.comment symbolIcon.fileForeground:skip
ui.mutedText:2 symbolIcon.fileForeground symbolIcon.folderForeground terminalSymbolIcon.fileForeground terminalSymbolIcon.folderForeground terminalSymbolIcon.symbolicLinkFileForeground terminalSymbolIcon.symbolicLinkFolderForeground terminalCommandDecoration.defaultBackground terminalCommandGuide.foreground editorGutter.commentRangeForeground
ui.mutedText:3 gitDecoration.ignoredResourceForeground
diagnostic.error:3 gitDecoration.conflictingResourceForeground
diagnostic.info:3 gitDecoration.submoduleResourceForeground
diagnostic.info:2 markdownAlert.note.foreground markdownAlert.tip.foreground:skip
diff.added:2 markdownAlert.tip.foreground
syntax.keyword:2 markdownAlert.important.foreground charts.purple scmGraph.foreground2 symbolIcon.keywordForeground:skip
diagnostic.warning:2 markdownAlert.warning.foreground editorOverviewRuler.commentForeground:skip
diagnostic.error:2 markdownAlert.caution.foreground
ui.warning:2 charts.orange scmGraph.foreground3 editor.wordHighlightStrongBackground:skip statusBarItem.warningForeground:skip
ansi.cyan scmGraph.foreground4 scmGraph.historyItemRemoteRefColor
ansi.magenta scmGraph.foreground5 scmGraph.historyItemBaseRefColor
editor.accentText:2 statusBarItem.errorForeground statusBarItem.warningForeground activityErrorBadge.foreground activityWarningBadge.foreground debugView.exceptionLabelForeground testing.message.error.badgeForeground
ansi.black terminal.ansiBlack
ansi.red terminal.ansiRed
ansi.green terminal.ansiGreen
ansi.yellow terminal.ansiYellow
ansi.blue terminal.ansiBlue
ansi.magenta:2 terminal.ansiMagenta
ansi.cyan:2 terminal.ansiCyan
ansi.white terminal.ansiWhite
ansi.brightBlack terminal.ansiBrightBlack
ansi.brightRed terminal.ansiBrightRed
ansi.brightGreen terminal.ansiBrightGreen
ansi.brightYellow terminal.ansiBrightYellow
ansi.brightBlue terminal.ansiBrightBlue
ansi.brightMagenta terminal.ansiBrightMagenta
ansi.brightCyan terminal.ansiBrightCyan
ansi.brightWhite terminal.ansiBrightWhite
`

// vscodeColorKeys is the table parsed: id → role, in table order. A
// trailing ":skip" on an id drops it (kept in the text where the id was
// considered and given to a better role elsewhere); ":N" after a role
// name only lets a role have a second line.
var vscodeColorKeys = parseColorTable(vscodeColorTable)

// colorKey is one key of a target's colour table: the role that paints it
// and, for "role@0.1" entries, the opacity the target's key takes (a Zed
// status ".background" tint).
type colorKey struct {
	key, role string
	alpha     float64 // 0 when the role's colour is used as it is
	clear     bool    // "@0": fully transparent
}

// paint is the key's colour on a theme.
func (k colorKey) paint(t *theme.Theme) theme.Color {
	c := t.Color(k.role)
	switch {
	case k.clear:
		c.A = 0
	case k.alpha > 0:
		c.A = uint8(math.Round(float64(c.A) * k.alpha))
	}
	return c
}

func parseColorTable(table string) []colorKey {
	var out []colorKey
	seen := map[string]bool{}
	for _, line := range strings.Split(table, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		head, _, _ := strings.Cut(f[0], ":")
		role, op, hasOp := strings.Cut(head, "@")
		if _, ok := theme.RoleByPath(role); !ok {
			panic("theme: colour table names no role: " + f[0])
		}
		var a float64
		if hasOp {
			var err error
			if a, err = strconv.ParseFloat(op, 64); err != nil || a < 0 || a >= 1 {
				panic("theme: colour table opacity " + f[0])
			}
		}
		for _, k := range f[1:] {
			if strings.HasSuffix(k, ":skip") {
				continue
			}
			if seen[k] {
				panic("theme: colour table gives " + k + " twice")
			}
			seen[k] = true
			out = append(out, colorKey{key: k, role: role, alpha: a, clear: hasOp && a == 0})
		}
	}
	return out
}

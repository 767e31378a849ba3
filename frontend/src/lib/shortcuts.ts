// The keyboard shortcuts Help → Keyboard shortcuts lists: the menu's
// accelerators (app/shell/desktop.go appMenu; shortcuts.test.ts holds the two
// together) and the keys the views handle themselves.
export type Shortcut = { keys: string; label: string };

/** "Ctrl" reads "⌘" on macOS, where the menu's CmdOrCtrl is Command. */
export function modName(platform = typeof navigator !== 'undefined' ? navigator.platform : ''): string {
  return /mac/i.test(platform) ? '⌘' : 'Ctrl';
}

export function shortcuts(mod = modName()): { group: string; items: Shortcut[] }[] {
  return [
    {
      group: 'shortcuts.group.app',
      items: [
        { keys: `${mod}+N`, label: 'shortcuts.newBuild' },
        { keys: `${mod}+O`, label: 'shortcuts.import' },
        { keys: `${mod}+Shift+H`, label: 'shortcuts.home' },
        { keys: `${mod}+,`, label: 'shortcuts.settings' },
        { keys: `${mod}+/`, label: 'shortcuts.help' },
        { keys: `${mod}+Q`, label: 'shortcuts.quit' },
      ],
    },
    {
      group: 'shortcuts.group.chat',
      items: [
        { keys: `${mod}+Enter`, label: 'shortcuts.send' },
        { keys: 'Shift+Enter', label: 'shortcuts.newline' },
        { keys: 'Esc', label: 'shortcuts.stop' },
        { keys: '↑ ↓, Enter', label: 'shortcuts.commands' },
      ],
    },
    {
      group: 'shortcuts.group.editor',
      items: [
        { keys: `${mod}+Z`, label: 'shortcuts.undo' },
        { keys: `${mod}+Shift+Z`, label: 'shortcuts.redo' },
        { keys: 'Enter', label: 'shortcuts.hex' },
        { keys: 'Esc', label: 'shortcuts.close' },
      ],
    },
  ];
}

/**
 * The console's keyboard (docs/decisions/146-console-keyboard.md): one key for each action of the
 * page, and every action in the command palette (Ctrl+K or ⌘K). A page marks an action with its key
 * (`data-shortcut`); the palette lists what the page marks, and the console's sections.
 */
export const SHORTCUTS = [
  { key: 'j', label: 'Next ticket' },
  { key: 'k', label: 'Previous ticket' },
  { key: 'r', label: 'Reply' },
  { key: 'n', label: 'Internal note' },
  { key: 'a', label: 'Assign to me (or unassign)' },
  { key: 'c', label: 'Close the ticket' },
  { key: 'l', label: 'Labels' },
  { key: 'm', label: 'Apply a macro' },
  { key: '/', label: 'Search' },
  { key: 'i', label: 'Support inbox' },
  { key: '?', label: 'Keyboard shortcuts' },
] as const;

/**
 * The console layout's form that keeps a staff member's choice on their account, wherever they sign
 * in: single-key shortcuts on, or off (`keyboardShortcuts` 'true' or 'false').
 */
export const KEYBOARD_FORM = 'keyboard';

export const SHORTCUT_TEXT = {
  palette: 'Command palette',
  paletteHint: 'Type to find an action or a page',
  noMatch: 'Nothing matches.',
  help: 'Keyboard shortcuts',
  helpIntro:
    'Single keys act on the page you are on; they never fire while you type in a field (Esc leaves it). Ctrl+K (⌘K on a Mac) opens the command palette from anywhere.',
  toggle: 'Single-key shortcuts',
  on: 'On',
  off: 'Off',
  turnOff: 'Turn single-key shortcuts off',
  turnOn: 'Turn single-key shortcuts on',
  close: 'Close',
  page: 'On this page',
  go: 'Go to',
} as const;

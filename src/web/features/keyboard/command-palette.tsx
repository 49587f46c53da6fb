import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { SHORTCUT_TEXT, SHORTCUTS } from '../../../contracts/shortcuts.ts';
import { activate, setShortcutsOn, shortcutsOn } from './use-shortcuts.ts';

interface Command {
  id: string;
  label: string;
  group: string;
  key?: string | undefined;
  run(): void;
}

/** The words of a marked element: its own label for the palette, or its accessible text. */
const labelOf = (element: HTMLElement) =>
  element.dataset.shortcutLabel ??
  element.getAttribute('aria-label') ??
  (element.textContent?.trim() || element.getAttribute('placeholder') || '');

/** What the page offers now: every action it marked with a key, then the console's sections. */
function commandsOfPage(navigate: (to: string) => void): Command[] {
  const actions = [...document.querySelectorAll<HTMLElement>('[data-shortcut]')]
    .filter((element) => !element.closest('[hidden], [inert], dialog'))
    .map((element, index) => ({
      id: `action-${index}`,
      label: labelOf(element),
      group: SHORTCUT_TEXT.page,
      key: element.dataset.shortcut,
      run: () => activate(element),
    }))
    .filter((command) => command.label);
  const seen = new Set<string>();
  const pages = [...document.querySelectorAll<HTMLAnchorElement>('.admin-nav__wide a[href]')]
    .filter((link) => {
      const href = link.getAttribute('href')!;
      if (seen.has(href)) return false;
      seen.add(href);
      return true;
    })
    .map((link, index) => ({
      id: `page-${index}`,
      label: link.textContent?.trim() ?? '',
      group: SHORTCUT_TEXT.go,
      run: () => navigate(link.getAttribute('href')!),
    }));
  return [...actions, ...pages];
}

/**
 * The command palette and the list of shortcuts (docs/decisions/146-console-keyboard.md), loaded
 * the first time either opens: a modal dialog with a search box over the page's actions and the
 * console's sections (arrows choose, Enter runs, Esc closes), or the shortcuts with the switch that
 * turns single keys off.
 */
export default function CommandPalette({ mode, onClose }: { mode: 'commands' | 'help'; onClose(): void }) {
  const navigate = useNavigate();
  const dialog = useRef<HTMLDialogElement>(null);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [on, setOn] = useState(shortcutsOn);
  const listId = useId();
  const titleId = useId();
  // Read once as it opens: what the page shows then.
  const [all] = useState(() => commandsOfPage((to) => void navigate(to)));
  const shown = useMemo(() => {
    const words = query.trim().toLowerCase();
    const toggle: Command = {
      id: 'toggle',
      label: on ? SHORTCUT_TEXT.turnOff : SHORTCUT_TEXT.turnOn,
      group: SHORTCUT_TEXT.help,
      run: () => {
        setShortcutsOn(!on);
        setOn(!on);
      },
    };
    const list = [...all, toggle];
    return words ? list.filter((command) => command.label.toLowerCase().includes(words)) : list;
  }, [all, query, on]);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  const run = (command: Command | undefined) => {
    if (!command) return;
    // The switch stays in the palette, which lists everything again with the switch's new state.
    if (command.id === 'toggle') {
      command.run();
      setQuery('');
      setActive(0);
      return;
    }
    onClose();
    // After the dialog has gone: a field it focuses keeps the focus.
    requestAnimationFrame(() => command.run());
  };

  return (
    <dialog
      ref={dialog}
      className="palette"
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {mode === 'help' ? (
        <>
          <h2 id={titleId}>{SHORTCUT_TEXT.help}</h2>
          <p>{SHORTCUT_TEXT.helpIntro}</p>
          <table className="palette__keys">
            <tbody>
              {SHORTCUTS.map((shortcut) => (
                <tr key={shortcut.key}>
                  <td>
                    <kbd>{shortcut.key}</kbd>
                  </td>
                  <td>{shortcut.label}</td>
                </tr>
              ))}
              <tr>
                <td>
                  <kbd>Ctrl</kbd>+<kbd>K</kbd>
                </td>
                <td>{SHORTCUT_TEXT.palette}</td>
              </tr>
            </tbody>
          </table>
          <p className="palette__toggle">
            <button
              type="button"
              role="switch"
              aria-checked={on}
              className="button button--ghost"
              onClick={() => {
                setShortcutsOn(!on);
                setOn(!on);
              }}
            >
              {SHORTCUT_TEXT.toggle}: {on ? SHORTCUT_TEXT.on : SHORTCUT_TEXT.off}
            </button>{' '}
            <button type="button" className="button button--ghost" onClick={onClose}>
              {SHORTCUT_TEXT.close}
            </button>
          </p>
        </>
      ) : (
        <>
          <h2 id={titleId} className="visually-hidden">
            {SHORTCUT_TEXT.palette}
          </h2>
          <input
            className="input palette__input"
            role="combobox"
            aria-expanded="true"
            aria-controls={listId}
            aria-activedescendant={shown[active] ? `${listId}-${shown[active].id}` : undefined}
            aria-label={SHORTCUT_TEXT.palette}
            placeholder={SHORTCUT_TEXT.paletteHint}
            value={query}
            autoFocus
            onChange={(event) => {
              setQuery(event.target.value);
              setActive(0);
            }}
            onKeyDown={(event) => {
              if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
                event.preventDefault();
                const step = event.key === 'ArrowDown' ? 1 : -1;
                setActive((at) => (shown.length === 0 ? 0 : (at + step + shown.length) % shown.length));
              } else if (event.key === 'Enter') {
                event.preventDefault();
                run(shown[active]);
              }
            }}
          />
          {shown.length === 0 ? (
            <p className="palette__none">{SHORTCUT_TEXT.noMatch}</p>
          ) : (
            <ul id={listId} role="listbox" aria-label={SHORTCUT_TEXT.palette} className="palette__list">
              {shown.map((command, index) => (
                <li
                  key={command.id}
                  id={`${listId}-${command.id}`}
                  role="option"
                  aria-selected={index === active}
                  className="palette__option"
                  onClick={() => run(command)}
                >
                  <span>{command.label}</span>
                  <span className="palette__group">
                    {command.group}
                    {command.key ? (
                      <>
                        {' '}
                        <kbd>{command.key}</kbd>
                      </>
                    ) : null}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </dialog>
  );
}

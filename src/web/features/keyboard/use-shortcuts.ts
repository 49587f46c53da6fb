import { useEffect, useState } from 'react';
import { useFetcher, useNavigate } from 'react-router';
import { KEYBOARD_FORM } from '../../../contracts/shortcuts.ts';

/** The inbox's tickets in the order it last showed them: j and k on a ticket go along it. */
const ORDER_KEY = 'bagspace.inbox-order';

/**
 * Single-key shortcuts are on unless this staff member turned them off (WCAG 2.1.4): the choice is
 * their account's (the console layout reads it), kept by the layout's action wherever they sign in.
 */
let keysOn = true;
let keep: ((on: boolean) => void) | null = null;

export function shortcutsOn(): boolean {
  return keysOn;
}

export function setShortcutsOn(on: boolean) {
  keysOn = on;
  keep?.(on);
}

/** The inbox says which tickets it shows, in order. */
export function rememberInboxOrder(ticketIds: readonly string[]) {
  try {
    sessionStorage.setItem(ORDER_KEY, JSON.stringify(ticketIds));
  } catch {
    // As above: j and k on a ticket then do nothing.
  }
}

function inboxOrder(): string[] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(ORDER_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

const isTextField = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    (target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type)));

/** An element the page marked with this key, visible or inside a closed menu. */
function marked(key: string): HTMLElement | null {
  const usable = [...document.querySelectorAll<HTMLElement>(`[data-shortcut="${CSS.escape(key)}"]`)].filter(
    (element) => !element.closest('[hidden], [inert], dialog') && !('disabled' in element && element.disabled),
  );
  // One in view first (the console's menu repeats its links for narrow screens), else one in a closed menu.
  return usable.find((element) => element.getClientRects().length > 0) ?? usable[0] ?? null;
}

/** Runs a marked action: opens the menus around it, then presses a button or link, or enters a field. */
export function activate(element: HTMLElement) {
  for (let at = element.parentElement; at; at = at.parentElement)
    if (at instanceof HTMLDetailsElement && !at.open) at.open = true;
  if (element instanceof HTMLButtonElement || element instanceof HTMLAnchorElement) element.click();
  else element.focus();
}

/** The rows of the inbox's list, whose links open their tickets. */
const rowLinks = () => [...document.querySelectorAll<HTMLAnchorElement>('a[data-ticket-link]')];

/**
 * The console's keyboard (docs/decisions/146-console-keyboard.md): Ctrl+K or ⌘K opens the command
 * palette anywhere; single keys (when on) press what the page marked with them, j and k go from
 * ticket to ticket, ? shows them all, Esc leaves a text field. None fires while a field is typed in.
 * The palette's code loads the first time it opens.
 */
export function useConsoleShortcuts(stored: boolean) {
  const navigate = useNavigate();
  const [palette, setPalette] = useState<null | 'commands' | 'help'>(null);
  // The account's choice as the layout read it; a switch sends the new one to the layout's action.
  const { submit } = useFetcher();
  useEffect(() => {
    keysOn = stored;
  }, [stored]);
  useEffect(() => {
    keep = (on) =>
      void submit({ intent: KEYBOARD_FORM, keyboardShortcuts: String(on) }, { method: 'post', action: '/admin' });
    return () => {
      keep = null;
    };
  }, [submit]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setPalette((open) => (open ? null : 'commands'));
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTextField(event.target)) {
        if (event.key === 'Escape') (event.target as HTMLElement).blur();
        return;
      }
      if (!shortcutsOn() || document.querySelector('dialog[open]')) return;
      if (event.key === '?') {
        event.preventDefault();
        setPalette('help');
        return;
      }
      if (event.key === 'j' || event.key === 'k') {
        const step = event.key === 'j' ? 1 : -1;
        const links = rowLinks();
        if (links.length > 0) {
          // In the inbox: along its rows (Enter opens the one in focus).
          const at = links.indexOf(document.activeElement as HTMLAnchorElement);
          const next = links[at === -1 ? (step === 1 ? 0 : links.length - 1) : at + step];
          if (next) {
            event.preventDefault();
            next.focus();
          }
          return;
        }
        // On a ticket: the next or previous one the inbox showed.
        const here = /^\/admin\/support\/([^/]+)$/.exec(location.pathname)?.[1];
        const order = inboxOrder();
        const at = here ? order.indexOf(decodeURIComponent(here)) : -1;
        const next = at === -1 ? undefined : order[at + step];
        if (next) {
          event.preventDefault();
          void navigate(`/admin/support/${encodeURIComponent(next)}`);
        }
        return;
      }
      const element = marked(event.key);
      if (element) {
        event.preventDefault();
        activate(element);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [navigate]);
  return { palette, setPalette };
}

/**
 * Half-written messages kept in this browser (localStorage), so a reload, a closed tab or a ticket
 * closed and reopened loses none of the words. Each draft belongs to one signed-in person, one
 * ticket and one box (the reply, or the console's internal note); a draft left alone for 30 days is
 * dropped. Storage may be full or switched off: then nothing is kept, and nothing breaks.
 */

const PREFIX = 'bagspace:draft:';
const KEEP_MS = 30 * 24 * 60 * 60 * 1000;

interface Stored {
  text: string;
  /** When it was last written (ms), to drop old drafts. */
  at: number;
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** The key of a ticket's draft for one person and box; null when nobody is signed in. */
export function ticketDraftKey(
  user: string | null | undefined,
  ticketId: string,
  box: 'reply' | 'note' = 'reply',
): string | null {
  return user ? `${PREFIX}${box}:${ticketId}:${user}` : null;
}

function parse(raw: string | null): Stored | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<Stored>;
    return typeof value.text === 'string' && typeof value.at === 'number' ? { text: value.text, at: value.at } : null;
  } catch {
    return null;
  }
}

let swept = false;

/** Drops drafts older than KEEP_MS (once a page load, on the first write). */
function sweep(store: Storage) {
  if (swept) return;
  swept = true;
  const now = Date.now();
  for (let i = store.length - 1; i >= 0; i -= 1) {
    const key = store.key(i);
    if (!key?.startsWith(PREFIX)) continue;
    const draft = parse(store.getItem(key));
    if (!draft || now - draft.at > KEEP_MS) store.removeItem(key);
  }
}

/** The draft kept under `key`, or '' (none, too old, or no storage). */
export function readDraft(key: string | null): string {
  const store = storage();
  if (!key || !store) return '';
  try {
    const draft = parse(store.getItem(key));
    return draft && Date.now() - draft.at <= KEEP_MS ? draft.text : '';
  } catch {
    return '';
  }
}

/** Keeps `text` as the draft under `key`; blank text removes it. */
export function writeDraft(key: string | null, text: string) {
  const store = storage();
  if (!key || !store) return;
  try {
    if (text.trim() === '') store.removeItem(key);
    else {
      sweep(store);
      store.setItem(key, JSON.stringify({ text, at: Date.now() } satisfies Stored));
    }
  } catch {
    // Full or refused: the words stay in the box, only not across a reload.
  }
}

/** Forgets the draft under `key`: its message was sent. */
export const clearDraft = (key: string | null) => writeDraft(key, '');

/** Forgets every draft in this browser: its person signed out (a shared computer keeps none of their words). */
export function forgetAllDrafts() {
  const store = storage();
  if (!store) return;
  try {
    for (let i = store.length - 1; i >= 0; i -= 1) {
      const key = store.key(i);
      if (key?.startsWith(PREFIX)) store.removeItem(key);
    }
  } catch {
    // Refused storage holds no drafts.
  }
}

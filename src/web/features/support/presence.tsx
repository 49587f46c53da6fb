import { type RefObject, useEffect } from 'react';
import { deskApi } from '../../../contracts/api/support.ts';
import { DESK_TEXT } from '../../../contracts/desk.ts';
import type { TicketPresence } from '../../../contracts/support.schemas.ts';
import { api } from '../../lib/api-client.ts';

/** How often a console page with a ticket open says so: the server forgets it 12 s after the last. */
const PRESENCE_BEAT_MS = 4000;
/** Typing: a key in the reply or note box within this long. */
const TYPING_IDLE_MS = 4000;

/**
 * Tells the team that this page has the ticket open, and when its agent types in one of the boxes
 * inside `area` (docs/decisions/142-presence.md): a beat every PRESENCE_BEAT_MS, and one at once when
 * typing starts. The server forgets a page 12 s after its last beat, so a tab closed, a laptop shut
 * or a network gone leaves no one "viewing" for long; the live stream's close ends it sooner. A beat
 * that fails is not retried: the next one comes anyway.
 */
export function usePresenceBeat(ticketId: string | null, area: RefObject<HTMLElement | null>) {
  useEffect(() => {
    if (!ticketId) return;
    let typedAt = 0;
    let saidTyping = false;
    const beat = () => {
      saidTyping = Date.now() - typedAt < TYPING_IDLE_MS;
      void api.call(deskApi.presence, { params: { ticketId }, body: { typing: saidTyping } }).catch(() => {});
    };
    const onInput = (event: Event) => {
      if (!(event.target instanceof HTMLTextAreaElement)) return;
      typedAt = Date.now();
      if (!saidTyping) beat();
    };
    const element = area.current;
    element?.addEventListener('input', onInput);
    const timer = setInterval(beat, PRESENCE_BEAT_MS);
    beat();
    return () => {
      clearInterval(timer);
      element?.removeEventListener('input', onInput);
    };
  }, [ticketId, area]);
}

/** Who else has the ticket open and who is typing on it: on the ticket page and on its inbox row. */
export function PresenceLine({
  presence,
  compact = false,
}: {
  presence: TicketPresence | undefined;
  compact?: boolean;
}) {
  if (!presence || presence.viewers.length === 0) return null;
  const quiet = presence.viewers.filter((email) => !presence.typing.includes(email));
  return (
    <span className={compact ? 'presence presence--row' : 'presence'} data-testid="presence">
      {presence.typing.length > 0 ? (
        <span className="presence__typing">{DESK_TEXT.typing(presence.typing)}</span>
      ) : null}
      {quiet.length > 0 ? (
        <span>
          {compact ? DESK_TEXT.viewing : DESK_TEXT.alsoViewing} {quiet.join(', ')}
        </span>
      ) : null}
    </span>
  );
}

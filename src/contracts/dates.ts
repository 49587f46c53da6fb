/**
 * How dates are written for people: en-NZ, in New Zealand time (docs/product.md §9). Every page
 * and mail formats dates through these, so one calendar day reads the same everywhere.
 */

const NZ = 'Pacific/Auckland';

/**
 * Building an Intl formatter costs about forty times what formatting with one does (0.6 ms against
 * 0.016 ms in Node 22; a browser's ICU is alike): a thread of 30 messages built 30 of them on every
 * render, on the server and again as the page hydrated. Each formatter here is built once, when it
 * is first used (not as the module loads: a page that shows no date builds none).
 */
export function formatter(options: Intl.DateTimeFormatOptions): () => Intl.DateTimeFormat {
  let made: Intl.DateTimeFormat | undefined;
  return () => (made ??= new Intl.DateTimeFormat('en-NZ', options));
}

/** Texts of formatted dates by formatter and input, e.g. `dateTime 2026-12-25T03:30:00Z` → `25 Dec 2026, 4:30 pm`. */
export type DateTexts = Map<string, string>;

/** The element of a page that carries the dates its server wrote (a JSON object of DateTexts). */
export const DATE_TEXTS_ID = 'date-texts';

let keptTexts: () => DateTexts | undefined = () => undefined;

/**
 * Where the dates of the page being drawn are kept (docs/decisions/121-dates-come-with-the-page.md).
 * The server keeps each page's own while it renders it and sends them with the page; the browser
 * starts from them, so hydrating a page formats no date it already shows. The first formatter a
 * browser builds loads its time-zone data: 130-230 ms on a phone's CPU (Chromium at 4x slowdown),
 * one long task in the middle of hydration, for text that is already on the screen.
 */
export function keepDateTexts(source: () => DateTexts | undefined): void {
  keptTexts = source;
}

/**
 * `format`, answered from the kept texts when they hold the input, and kept there when not. Every
 * way of writing a date that a page shows goes through this, under a name of its own.
 */
export function remembered<T extends Date | string>(name: string, format: (input: T) => string): (input: T) => string {
  return (input) => {
    const texts = keptTexts();
    if (!texts) return format(input);
    const key = `${name} ${typeof input === 'string' ? input : input.getTime()}`;
    let text = texts.get(key);
    if (text === undefined) {
      text = format(input);
      texts.set(key, text);
    }
    return text;
  };
}

const DATE_TIME = formatter({ timeZone: NZ, dateStyle: 'medium', timeStyle: 'short' });
const LONG_DAY = formatter({ timeZone: NZ, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
const CALENDAR_DAY = formatter({ timeZone: 'UTC', dateStyle: 'medium' });
const SHORT_DATE_TIME = formatter({
  timeZone: NZ,
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const DAY = formatter({ timeZone: NZ, day: 'numeric', month: 'long', year: 'numeric' });
const WEEKDAY_TIME = formatter({
  timeZone: NZ,
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** Dates are shown in the en-NZ locale, in New Zealand time (docs/product.md §9). */
export const formatNzDateTime = remembered('dateTime', (iso: string) => DATE_TIME().format(new Date(iso)));

/** A date as the pages and mail write it: 'Friday 25 December 2026' (New Zealand calendar day). */
export const longDate = remembered('longDay', (instant: Date | string) =>
  LONG_DAY().format(new Date(instant)).replace(',', ''),
);

/** A New Zealand calendar date ('YYYY-MM-DD', a privacy request's due date) as people read it: '12 Dec 2026'. */
export const formatNzDay = remembered('calendarDay', (day: string) =>
  CALENDAR_DAY().format(new Date(`${day}T12:00:00Z`)),
);

/** An instant in a list of sessions: '3 Dec 2026, 4:05 pm'. */
export const formatNzShortDateTime = remembered('shortDateTime', (instant: Date | string) =>
  SHORT_DATE_TIME().format(new Date(instant)),
);

/** The calendar day of an instant: '3 December 2026'. */
export const formatNzDate = remembered('day', (instant: Date | string) => DAY().format(new Date(instant)));

/** A due time within the coming days: 'Mon 30 Nov, 10:30' (put together from parts, the same in every engine). */
export const formatNzDueTime = remembered('dueTime', (instant: Date | string) => {
  const part = Object.fromEntries(
    WEEKDAY_TIME()
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  return `${part.weekday} ${part.day} ${part.month}, ${part.hour}:${part.minute}`;
});

import type { CalendarSettings, Targets } from './service-levels.schemas.ts';

/**
 * Service levels (docs/decisions/108-service-levels.md): the team's business calendar, the targets per reason,
 * and the words the console uses for due times. Every user-facing string lives here.
 */

export const WEEKDAYS = [
  { key: 'mon', label: 'Monday' },
  { key: 'tue', label: 'Tuesday' },
  { key: 'wed', label: 'Wednesday' },
  { key: 'thu', label: 'Thursday' },
  { key: 'fri', label: 'Friday' },
  { key: 'sat', label: 'Saturday' },
  { key: 'sun', label: 'Sunday' },
] as const;
export type WeekdayKey = (typeof WEEKDAYS)[number]['key'];
/** JavaScript's getUTCDay() order (Sunday first) to our keys. */
export const WEEKDAY_BY_INDEX: readonly WeekdayKey[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** Regional anniversary days, as `date-holidays` names New Zealand's provinces. */
export const ANNIVERSARY_REGIONS = [
  { value: 'AUK', label: 'Auckland' },
  { value: 'BOP', label: 'Bay of Plenty' },
  { value: 'CAN', label: 'Canterbury (Christchurch Show Day)' },
  { value: 'CIT', label: 'Chatham Islands' },
  { value: 'GIS', label: 'Gisborne' },
  { value: 'HKB', label: "Hawke's Bay" },
  { value: 'MBH', label: 'Marlborough' },
  { value: 'MWT', label: 'Manawatū-Whanganui' },
  { value: 'NSN', label: 'Nelson' },
  { value: 'NTL', label: 'Northland' },
  { value: 'OTA', label: 'Otago' },
  { value: 'STL', label: 'Southland' },
  { value: 'TAS', label: 'Tasman' },
  { value: 'TKI', label: 'Taranaki' },
  { value: 'WKO', label: 'Waikato' },
  { value: 'WGN', label: 'Wellington' },
  { value: 'WTC', label: 'Westland' },
] as const;
export const ANNIVERSARY_REGION_VALUES = ANNIVERSARY_REGIONS.map((r) => r.value) as [string, ...string[]];

export const CALENDAR_TEXT = {
  title: 'Business hours',
  lead: 'When the team answers. Due times count only these hours, in New Zealand time.',
  timeInvalid: 'Use a time like 09:00 or 17:30.',
  spanOrder: 'The closing time must be after the opening time.',
  spansOverlap: 'Two spans on one day overlap: join them into one.',
  tooManySpans: 'At most four spans a day.',
  dateInvalid: 'Use a date like 2026-12-24.',
  overrideDuplicate: 'That date already has an exception: change it instead.',
  noOpenHours: 'Open at least one span in the week: with no hours, nothing could ever be due.',
  saved: 'Business hours saved. Due times of waiting tickets have moved to match.',
  noteTooLong: 'Keep the note under 120 characters.',
} as const;

/** '09:00' … '24:00' (a span may close at midnight). */
export const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;
export const minutesOfTime = (time: string): number => {
  const [h, m] = time.split(':').map(Number);
  return h! * 60 + m!;
};

const nineToFive = [{ start: '09:00', end: '17:00' }];
export const DEFAULT_CALENDAR: CalendarSettings = {
  hours: { mon: nineToFive, tue: nineToFive, wed: nineToFive, thu: nineToFive, fri: nineToFive, sat: [], sun: [] },
  anniversary: null,
  overrides: [],
};

export const TARGETS_TEXT = {
  title: 'Service targets',
  lead: 'How long, in business hours, the team takes at most. The clock runs only while a ticket is waiting on us.',
  minutesInvalid: 'Enter business hours and minutes, like 4:00 or 0:30 (at most 400:00).',
  saved: 'Targets saved. Due times of waiting tickets have moved to match.',
} as const;

/** A target in business minutes: at least a minute, at most 400 business hours (ten working weeks). */
export const TARGET_MINUTES_MIN = 1;
export const TARGET_MINUTES_MAX = 400 * 60;

/**
 * Defaults: an Incident (a parcel lost or damaged, someone hurt) is answered within two business
 * hours; a question within a business day; closing an account within half a day, as the Privacy
 * Act's clock runs behind it.
 */
export const DEFAULT_TARGETS: Targets = {
  General: { firstResponse: 8 * 60, nextResponse: 8 * 60, resolution: 40 * 60 },
  Incident: { firstResponse: 2 * 60, nextResponse: 4 * 60, resolution: 16 * 60 },
  Deactivation: { firstResponse: 4 * 60, nextResponse: 8 * 60, resolution: 24 * 60 },
};

/** '4:00', '0:30', '40:00': how targets are typed and shown. */
export const formatTargetMinutes = (minutes: number): string =>
  `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
export function parseTargetMinutes(text: string): number | null {
  const match = /^\s*(\d{1,3})(?::([0-5]\d))?\s*$/.exec(text);
  if (!match) return null;
  const minutes = Number(match[1]) * 60 + Number(match[2] ?? 0);
  return minutes >= TARGET_MINUTES_MIN && minutes <= TARGET_MINUTES_MAX ? minutes : null;
}

/** The Business hours page of the console (/admin/business-hours): its headings, labels and messages. */
export const BUSINESS_HOURS_TEXT = {
  hoursTitle: 'Opening hours',
  hoursLead:
    'Up to three spans a day, in New Zealand time: a lunch break is two spans. A day with every span blank is closed. A span that closes at midnight closes at 00:00.',
  hoursCaption: 'Opening hours per weekday',
  dayColumn: 'Day',
  spanColumn: (n: number) => `Span ${n}`,
  opensLabel: (day: string, n: number) => `${day}, span ${n} opens`,
  closesLabel: (day: string, n: number) => `${day}, span ${n} closes`,
  to: '–',
  closed: 'Closed',
  openFor: (minutes: number) => `Open ${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`,
  spanIncomplete: 'Enter both the opening and the closing time, or leave both blank.',
  anniversaryLabel: 'Regional anniversary day',
  anniversaryNone: 'None',
  anniversaryHint: 'The one regional anniversary day the team keeps as a holiday.',
  saveHours: 'Save opening hours',
  exceptionsTitle: 'Exceptions',
  exceptionsLead: 'Dated days that do not keep their weekday hours: a day closed, or different hours.',
  exceptionsCaption: 'Exceptions, earliest first',
  exceptionsEmpty: 'No exceptions: every day keeps its weekday hours, holidays closed.',
  exceptionColumns: ['Date', 'Hours', 'Note', 'Actions'] as const,
  remove: 'Remove',
  removeWhat: (day: string) => `the exception on ${day}`,
  exceptionGone: 'That exception was already removed.',
  addExceptionTitle: 'Add an exception',
  dateLabel: 'Date',
  dateRequired: 'Choose the day of the exception.',
  closedAllDay: 'Closed all day',
  closedAllDayHint: 'Ticked, the day is closed whatever the hours below say.',
  exceptionHours: 'Hours that day',
  exceptionOpensLabel: (n: number) => `Span ${n} opens`,
  exceptionClosesLabel: (n: number) => `Span ${n} closes`,
  exceptionHoursMissing: 'Enter the hours the team is open that day, or tick “Closed all day”.',
  noteLabel: 'Note',
  noteHint: 'What the day is, for the team: “Staff training”, “Christmas Eve”.',
  addException: 'Add exception',
  aheadTitle: 'Holidays and exceptions ahead',
  aheadLead:
    'The next twelve months: New Zealand’s public holidays (Matariki and the Mondayised days too), the anniversary day kept, and your exceptions. Due times skip the hours closed.',
  aheadCaption: 'Holidays and exceptions in the next twelve months, earliest first',
  aheadColumns: ['Date', 'Holiday or exception', 'Hours'] as const,
  aheadEmpty: 'No holidays or exceptions in the next twelve months.',
  exception: 'Exception',
  targetsCaption: 'Targets per reason, in business hours and minutes',
  reasonColumn: 'Reason',
  targetLabel: (reason: string, kind: string) => `${reason}, ${kind.toLowerCase()}`,
  targetsHint: 'Hours and minutes of business time, like 4:00 or 0:30.',
  saveTargets: 'Save targets',
  saving: 'Saving…',
  unknownForm: 'That form is not on this page any more. Reload the page and try again.',
} as const;

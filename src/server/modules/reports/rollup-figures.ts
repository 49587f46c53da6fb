import { SPREAD_BUCKETS } from '../../../contracts/reports.ts';
import { addDays } from '../../calendar/business-calendar.ts';
import type { ClaimsFigureRow } from './claims-report.repository.ts';
import type { Range } from './filters.ts';
import { type DayFigures, daysBetween, isoWeekday, type MonthFigures, NONE } from './rollups.ts';
import { type Histogram, mergeInto, quantile } from './sketch.ts';

/**
 * A report's figures added up from the rollups' day rows (docs/decisions/154-report-rollups.md):
 * counts are sums; percentiles are exact when the range is small enough for the database to sort
 * its tickets (`exact`), else read from the days' merged histograms (sketch.ts).
 */

export interface TimeRow {
  count: number;
  median_min: number | null;
  p90_min: number | null;
  median_hours: number | null;
  p90_hours: number | null;
  met: number;
  late: number;
}

export interface LabelRow {
  label_id: string;
  name: string;
  created: number;
  answered: number;
  median_min: number | null;
  median_hours: number | null;
  fr_met: number;
  closed: number;
  good: number;
  rated: number;
}

interface MedianRow {
  key: string;
  median_min: number | null;
  median_hours: number | null;
}

export interface RollupParts {
  /** The range's day rows and whole-month rows (`month`: a month row, `day` its first day). */
  rows: Array<{ day: string; month: boolean; first_by: string; created: number; figures: RowFigures | string }>;
  /** Per day of the range: new and closed tickets, ratings given (Good, all). */
  perDay: Array<{ day: string; created: number; closed: number; rated_good: number; rated_all: number }>;
  /** Each label's day and month rows, with what the By label table shows. */
  labelRows: Array<{
    label: string;
    name: string;
    created: number;
    fr: [number, number, number];
    res: [number, number, number];
    cohort: [number, number];
    frMin: Histogram;
    frHours: Histogram;
  }>;
  before: { created: number; closed: number };
  exact: { small: boolean; totals: Record<string, number | null> | null; firsts: unknown; labels: unknown };
  open: { fr_late: number; res_late: number };
  comments: Array<{ id: string; ticket_no: number; good: boolean; comment: string; rated_at: Date | string }>;
  /** The admins' answer days in the range (report_answer_days). */
  answers: Array<{
    day: string;
    user_id: string;
    email: string;
    gaps: Record<string, [number, number, number]> | string;
  }>;
  claims: ClaimsFigureRow;
  /** Emails of the admins who gave first answers (by user id). */
  emails: Map<string, string>;
  /** The chosen label's name. */
  labelName?: string | null;
}

/** A day row's figures, or a month row's. */
type RowFigures = DayFigures | MonthFigures;

const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
const figuresOf = (value: RowFigures | string): RowFigures =>
  typeof value === 'string' ? (JSON.parse(value) as RowFigures) : value;
const parsed = <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));

/** The Monday of a 'YYYY-MM-DD' day's week. */
function mondayOf(day: string): string {
  return addDays(day, 1 - isoWeekday(day));
}

interface Totals {
  created: number;
  fr: [number, number, number];
  res: [number, number, number];
  cohort: [number, number];
  frMin: Histogram;
  frHours: Histogram;
  resMin: Histogram;
  resHours: Histogram;
}

const emptyTotals = (): Totals => ({
  created: 0,
  fr: [0, 0, 0],
  res: [0, 0, 0],
  cohort: [0, 0],
  frMin: {},
  frHours: {},
  resMin: {},
  resHours: {},
});

/** Adds a row's counts and first-response histograms (what the By label and By admin tables read). */
function addFirsts(into: Totals, created: number, g: Pick<DayFigures, 'fr' | 'res' | 'cohort' | 'frMin' | 'frHours'>) {
  into.created += created;
  for (let i = 0; i < 3; i++) {
    into.fr[i] = into.fr[i]! + g.fr[i]!;
    into.res[i] = into.res[i]! + g.res[i]!;
  }
  into.cohort[0] += g.cohort[0];
  into.cohort[1] += g.cohort[1];
  mergeInto(into.frMin, g.frMin);
  mergeInto(into.frHours, g.frHours);
}

/** Adds a row's counts and every histogram. */
function addTotals(into: Totals, created: number, g: RowFigures) {
  addFirsts(into, created, g);
  mergeInto(into.resMin, g.resMin);
  mergeInto(into.resHours, g.resHours);
}

export function summed(range: Range, parts: RollupParts) {
  const exact = parts.exact.small;
  const totals = emptyTotals();
  const byFirst = new Map<string, Totals>();
  const createdPerDay = new Map<string, number>();
  const closedPerDay = new Map<string, number>();
  const weeks = new Map<string, { good: number; total: number }>();
  const spread = SPREAD_BUCKETS.map(() => 0);
  const weekHours = Array.from({ length: 7 * 24 }, () => 0);
  for (const row of parts.rows) {
    const g = figuresOf(row.figures);
    addTotals(totals, row.created, g);
    if (row.first_by !== NONE) {
      let first = byFirst.get(row.first_by);
      if (!first) byFirst.set(row.first_by, (first = emptyTotals()));
      addFirsts(first, row.created, g);
    }
    if (row.month) {
      (g as MonthFigures).weekHours.forEach((count, i) => (weekHours[i]! += count));
    } else {
      const offset = (isoWeekday(row.day) - 1) * 24;
      (g as DayFigures).hours.forEach((count, hour) => (weekHours[offset + hour]! += count));
    }
    g.spread.forEach((count, i) => (spread[i] = spread[i]! + count));
  }
  for (const day of parts.perDay) {
    if (day.created > 0) createdPerDay.set(day.day, day.created);
    if (day.closed > 0) closedPerDay.set(day.day, day.closed);
    if (day.rated_all > 0) {
      const week = mondayOf(day.day);
      const w = weeks.get(week) ?? { good: 0, total: 0 };
      w.good += day.rated_good;
      w.total += day.rated_all;
      weeks.set(week, w);
    }
  }

  const exactTotals = parts.exact.totals ? parsed<Record<string, number | null>>(parts.exact.totals) : {};
  const pick = (key: string, histogram: Histogram, p: number) =>
    exact ? num(exactTotals[key]) : quantile(histogram, p);
  const firstResponse: TimeRow = {
    count: totals.fr[0],
    median_min: pick('fr_median_min', totals.frMin, 0.5),
    p90_min: pick('fr_p90_min', totals.frMin, 0.9),
    median_hours: pick('fr_median_hours', totals.frHours, 0.5),
    p90_hours: pick('fr_p90_hours', totals.frHours, 0.9),
    met: totals.fr[1],
    late: totals.fr[2] + Number(parts.open.fr_late),
  };
  const resolution: TimeRow = {
    count: totals.res[0],
    median_min: pick('res_median_min', totals.resMin, 0.5),
    p90_min: pick('res_p90_min', totals.resMin, 0.9),
    median_hours: pick('res_median_hours', totals.resHours, 0.5),
    p90_hours: pick('res_p90_hours', totals.resHours, 0.9),
    met: totals.res[1],
    late: totals.res[2] + Number(parts.open.res_late),
  };

  // Per label: from the labels' own rows, or (with a label asked for, or exact) from the tickets.
  let byLabel: LabelRow[];
  if (range.label) {
    // With a label chosen, the table has that label's row: the report's own figures.
    byLabel = [
      {
        label_id: range.label,
        name: parts.labelName ?? '',
        created: totals.created,
        answered: totals.fr[0],
        median_min: firstResponse.median_min,
        median_hours: firstResponse.median_hours,
        fr_met: totals.fr[1],
        closed: totals.res[0],
        good: totals.cohort[0],
        rated: totals.cohort[1],
      },
    ];
  } else if (exact) {
    byLabel = (parsed<LabelRow[] | null>(parts.exact.labels) ?? []).map((row) => ({
      ...row,
      median_min: num(row.median_min),
      median_hours: num(row.median_hours),
    }));
  } else {
    const labels = new Map<string, { name: string; totals: Totals }>();
    for (const row of parts.labelRows) {
      let found = labels.get(row.label);
      if (!found) labels.set(row.label, (found = { name: row.name, totals: emptyTotals() }));
      addFirsts(found.totals, row.created, {
        fr: parsed(row.fr),
        res: parsed(row.res),
        cohort: parsed(row.cohort),
        frMin: parsed(row.frMin),
        frHours: parsed(row.frHours),
      });
    }
    byLabel = [...labels].map(([labelId, { name, totals: t }]) => ({
      label_id: labelId,
      name,
      created: t.created,
      answered: t.fr[0],
      median_min: quantile(t.frMin, 0.5),
      median_hours: quantile(t.frHours, 0.5),
      fr_met: t.fr[1],
      closed: t.res[0],
      good: t.cohort[0],
      rated: t.cohort[1],
    }));
  }
  byLabel = byLabel
    .filter((row) => row.created > 0)
    .sort((a, b) => b.created - a.created || a.name.localeCompare(b.name));

  // Per admin: everyone who answered in the range or gave a first answer to one of its tickets.
  const exactFirsts = new Map(
    (exact ? (parsed<MedianRow[] | null>(parts.exact.firsts) ?? []) : []).map((row) => [row.key, row] as const),
  );
  // A ticket an admin answered on some day of the range counts once: on the first of those days,
  // the one whose gap since their previous answer on it reaches back before the range.
  const answeredBy = new Map<string, { email: string; answered: number; good: number; rated: number }>();
  for (const row of parts.answers) {
    const offset = daysBetween(range.from, row.day);
    const gaps = parsed<Record<string, [number, number, number]>>(row.gaps);
    let admin = answeredBy.get(row.user_id);
    if (!admin) answeredBy.set(row.user_id, (admin = { email: row.email, answered: 0, good: 0, rated: 0 }));
    for (const gap in gaps) {
      if (Number(gap) <= offset) continue;
      admin.answered += gaps[gap]![0];
      admin.good += gaps[gap]![1];
      admin.rated += gaps[gap]![2];
    }
  }
  const admins = [...new Set([...answeredBy.keys(), ...[...byFirst.keys()].filter((id) => parts.emails.has(id))])]
    .map((userId) => {
      const answered = answeredBy.get(userId);
      const first = byFirst.get(userId);
      const exactFirst = exactFirsts.get(userId);
      return {
        user_id: userId,
        email: answered?.email ?? parts.emails.get(userId)!,
        answered: answered?.answered ?? 0,
        first_answers: first?.created ?? 0,
        median_min: first ? (exact ? num(exactFirst?.median_min) : quantile(first.frMin, 0.5)) : null,
        median_hours: first ? (exact ? num(exactFirst?.median_hours) : quantile(first.frHours, 0.5)) : null,
        good: answered?.good ?? 0,
        rated: answered?.rated ?? 0,
      };
    })
    .sort((a, b) => b.answered - a.answered || b.first_answers - a.first_answers || a.email.localeCompare(b.email));

  return {
    byLabel,
    created: totals.created,
    firstResponse,
    resolution,
    spread: SPREAD_BUCKETS.map((b, i) => ({ bucket: b.key, count: spread[i]! })),
    createdPerDay,
    closedPerDay,
    backlogBefore: Number(parts.before.created) - Number(parts.before.closed),
    // New tickets per ISO weekday (1 = Monday) and hour, where there were any.
    hours: weekHours.flatMap((count, i) =>
      count > 0 ? [{ weekday: Math.floor(i / 24) + 1, hour: i % 24, count }] : [],
    ),
    weeks: [...weeks]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([week, w]) => ({ week, good: w.good, total: w.total })),
    comments: parts.comments,
    admins,
    claims: parts.claims,
  };
}

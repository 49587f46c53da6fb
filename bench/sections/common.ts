/**
 * What every section shares: the settings read from the environment, the results object written to
 * bench/results/latest.json, the table's rows and `row` that adds one, `part` that runs one
 * section (skipped unless BENCH_ONLY names it; a failure becomes an "error" row), and the formats.
 */
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const CLIENT_DIR = path.join(ROOT, 'build', 'client');
export const seconds = Number(process.env.BENCH_SECONDS ?? 5);
export const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
export const lighthouseRuns = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
export const mailCount = Number(process.env.BENCH_MAIL_COUNT ?? 2000);
export const mailSmtpCount = Number(process.env.BENCH_MAIL_SMTP_COUNT ?? 300);
export const scaleStreams = Number(process.env.BENCH_SCALE_STREAMS ?? 5000);
const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((s) => s.trim())) : null;
const wanted = (section: string) => !only || only.has(section);

/** Limits raised so the load is not refused; everything else as `npm start` would run. */
export const RAISED_LIMITS = {
  TICKETS_PER_USER_PER_HOUR: '1000000',
  REGISTRATIONS_PER_IP_PER_HOUR: '1000000',
  LOGIN_FAILURES_PER_ACCOUNT: '1000000',
  LOGIN_FAILURES_PER_IP: '1000000',
  ACCOUNT_REQUESTS_PER_IP_PER_HOUR: '1000000',
  ACCOUNT_EMAILS_PER_HOUR: '1000000',
};

export const startedAt = Date.now();
export const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');
export const results: Record<string, unknown> = {
  startedAt: new Date(startedAt).toISOString(),
  machine: {
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model,
    memory: os.totalmem(),
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    loadAverageAtStart: os.loadavg(),
  },
  settings: { seconds, rounds, lighthouseRuns, mailCount, mailSmtpCount },
};

type Status = 'met' | 'missed' | '';
export interface Row {
  section: string;
  figure: string;
  value: string;
  goal: string;
  status: Status;
  note: string;
}
export const rows: Row[] = [];
let section = '';
export function row(figure: string, value: string, goal = '', met?: boolean, note = '') {
  const status: Status = met === undefined ? '' : met ? 'met' : 'missed';
  rows.push({ section, figure, value, goal, status, note });
  console.log(
    `  ${figure}: ${value}${goal ? `  [goal ${goal}${status ? `: ${status}` : ''}]` : ''}${note ? `  (${note})` : ''}`,
  );
}

/** One section of the bench: its BENCH_ONLY name, the heading it prints, and the work it does. */
export interface Section<Context = void> {
  name: string;
  title: string;
  run(context: Context): Promise<void>;
}

/** Runs `s` unless BENCH_ONLY leaves it out; records how long it took under `results.durations`. */
export async function part(s: Section): Promise<void>;
export async function part<Context>(s: Section<Context>, context: Context): Promise<void>;
export async function part<Context>(s: Section<Context>, context?: Context) {
  const { name, title } = s;
  if (!wanted(name)) return;
  section = name;
  const t0 = performance.now();
  console.log(`\n== ${title} (load average ${loadAverage()})`);
  try {
    await s.run(context as Context);
  } catch (error) {
    row('error', 'section did not finish', '', undefined, (error as Error).message.split('\n')[0]!);
    console.error(error);
  }
  const took = (performance.now() - t0) / 1000;
  console.log(`  (${name} took ${took.toFixed(0)} s)`);
  results.durations ??= {} as Record<string, number>;
  (results.durations as Record<string, number>)[name] = took;
}

export const ms = (n: number) => `${n < 10 ? n.toFixed(1) : Math.round(n)} ms`;
export const fixed = (n: number, d = 2) => n.toFixed(d);

/**
 * Figures the security and reliability suites measure (inputs tried, matrix cells, writes lost...).
 * Each test records what it measured; `npm run report:security` runs the suites and turns the records
 * into docs/security.md. Records live in .tmp/figures/, one file per figure and database kind.
 */
import fs from 'node:fs';
import path from 'node:path';

export const FIGURES_DIR = path.resolve(import.meta.dirname, '..', '..', '.tmp', 'figures');

/** `npm run soak` sets SOAK=1: the same tests with longer loops. */
export const soak = ['1', 'true', 'yes'].includes(String(process.env.SOAK ?? '').toLowerCase());

/** How many runs a loop makes: `quick` in `npm test`, `long` under `npm run soak`. */
export function runs(quick: number, long: number): number {
  return soak ? long : quick;
}

export interface FigureRecord {
  /** Catalogue ids this figure speaks to, e.g. ['AZ-02', 'AZ-03']. */
  checks: string[];
  /** Short human label, e.g. 'Authorization matrix'. */
  label: string;
  /** The measured values: numbers, strings or small arrays. */
  values: Record<string, unknown>;
}

/** Records one figure for the database kind under test ('pglite', 'postgres' or 'none'). */
export function recordFigure(name: string, record: FigureRecord): void {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`figure names are kebab-case: ${name}`);
  const kind = process.env.TEST_DATABASE ?? 'none';
  fs.mkdirSync(FIGURES_DIR, { recursive: true });
  const file = path.join(FIGURES_DIR, `${name}.${kind}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({ name, database: kind, soak, at: new Date().toISOString(), ...record }, null, 2),
  );
}

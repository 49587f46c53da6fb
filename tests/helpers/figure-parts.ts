/**
 * A figure measured by several test files, one part each (the advisory files, the authorization
 * matrix files). Each file records its part when it ends; the last file of a run to finish finds
 * every part of that run and writes the figure over them. Parts left by an earlier run are ignored,
 * so a figure never mixes runs: running only some of the files writes no figure.
 */
import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { FIGURES_DIR, recordFigure, soak, type FigureRecord } from './figures.ts';

const PARTS_DIR = path.join(FIGURES_DIR, '..', 'figure-parts');

/** This run of the project: the template database its global set-up made (one per run). */
function runId(): string {
  const id = process.env.TEST_DATABASE === 'postgres' ? inject('postgresRunPrefix') : inject('pgliteTemplate');
  return String(id ?? 'local');
}

/**
 * Records `part` of the figure `name`; once all of `parts` are there for this run, writes the figure
 * that `combine` makes of them (none when it returns null). Returns whether the figure was written.
 */
export function recordFigurePart<Values>(
  name: string,
  part: string,
  parts: readonly string[],
  values: Values,
  combine: (values: Record<string, Values>) => FigureRecord | null,
): boolean {
  if (!parts.includes(part)) throw new Error(`figure ${name} has no part ${part}`);
  const kind = process.env.TEST_DATABASE ?? 'none';
  const dir = path.join(PARTS_DIR, name);
  const fileOf = (p: string) => path.join(dir, `${p}.${kind}.json`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(fileOf(part), JSON.stringify({ runId: runId(), soak, values }, null, 2));
  // Each file writes its own part before reading the others, so the last to finish sees them all.
  const found: Record<string, Values> = {};
  for (const p of parts) {
    if (!fs.existsSync(fileOf(p))) return false;
    const record = JSON.parse(fs.readFileSync(fileOf(p), 'utf8')) as { runId: string; soak: boolean; values: Values };
    if (record.runId !== runId() || record.soak !== soak) return false;
    found[p] = record.values;
  }
  const figure = combine(found);
  if (figure) recordFigure(name, figure);
  return figure !== null;
}

/**
 * The end of a run: its data written, then the whole table printed as Markdown. A whole run writes
 * bench/results/latest.json, the figures the docs quote; a run of some sections (BENCH_ONLY) writes
 * .tmp/bench-partial.json instead, so it never replaces the whole run's data with a part of it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadAverage, results, ROOT, rows, startedAt } from './common.ts';

export function writeReport() {
  const totalSeconds = (Date.now() - startedAt) / 1000;
  (results.machine as Record<string, unknown>).loadAverageAtEnd = os.loadavg();
  results.totalSeconds = totalSeconds;
  results.table = rows;
  const written = process.env.BENCH_ONLY
    ? path.join(ROOT, '.tmp', 'bench-partial.json')
    : path.join(ROOT, 'bench', 'results', 'latest.json');
  fs.mkdirSync(path.dirname(written), { recursive: true });
  fs.writeFileSync(written, `${JSON.stringify(results, null, 2)}\n`);

  const cpu = os.cpus();
  console.log(
    `\nBagspace bench, ${new Date(startedAt).toISOString()}: ${cpu.length} × ${cpu[0]?.model ?? 'CPU'}, Node ${process.version}, load average now ${loadAverage()}; took ${Math.round(totalSeconds)} s\n`,
  );
  console.log('| Figure | Value | Goal | | Note |\n|---|---|---|---|---|');
  let current = '';
  for (const r of rows) {
    if (r.section !== current) {
      current = r.section;
      console.log(`| **${current}** | | | | |`);
    }
    console.log(`| ${r.figure} | ${r.value} | ${r.goal} | ${r.status} | ${r.note.replaceAll('|', '/')} |`);
  }
  console.log(`\nWritten to ${path.relative(ROOT, written)}`);
}

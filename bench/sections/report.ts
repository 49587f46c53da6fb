/** The end of a run: bench/results/latest.json written, then the whole table printed as Markdown. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadAverage, results, ROOT, rows, startedAt } from './common.ts';

export function writeReport() {
  const totalSeconds = (Date.now() - startedAt) / 1000;
  (results.machine as Record<string, unknown>).loadAverageAtEnd = os.loadavg();
  results.totalSeconds = totalSeconds;
  results.table = rows;
  fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'bench', 'results', 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);

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
  console.log('\nWritten to bench/results/latest.json');
}

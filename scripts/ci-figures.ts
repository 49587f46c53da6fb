/**
 * The end of `.ci/run`: its phases' seconds (.tmp/ci-phases.tsv, written by .ci/run) and npm test's
 * figures (.tmp/test-figures.json, scripts/test-figures.ts) in one file, .tmp/ci-figures.json, and a
 * short table on the console. Runs whether the run passed or failed, with whatever was measured.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { TEST_FIGURES, type TestFigures } from './test-figures.ts';

const root = path.resolve(import.meta.dirname, '..');
const tmp = path.join(root, '.tmp');
const phasesFile = path.join(tmp, 'ci-phases.tsv');

const phases = fs.existsSync(phasesFile)
  ? fs
      .readFileSync(phasesFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [name, seconds] = line.split('\t');
        return { name: name!, seconds: Number(seconds) };
      })
  : [];
const tests: TestFigures | undefined = fs.existsSync(TEST_FIGURES)
  ? JSON.parse(fs.readFileSync(TEST_FIGURES, 'utf8'))
  : undefined;
let commit = '';
try {
  commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
} catch {
  // Not a git checkout.
}
const totalSeconds = Math.round(phases.reduce((sum, p) => sum + p.seconds, 0));
const figures = { commit, at: new Date().toISOString(), totalSeconds, phases, tests };
fs.writeFileSync(path.join(tmp, 'ci-figures.json'), JSON.stringify(figures, null, 2));

const minutes = (s: number) => `${Math.floor(s / 60)} m ${String(Math.round(s % 60)).padStart(2, '0')} s`;
const row = (label: string, seconds: number) => `  ${label.padEnd(48)} ${minutes(seconds).padStart(10)}`;
console.log(`\nCI figures of ${commit || 'this tree'} (.tmp/ci-figures.json)`);
for (const phase of phases) console.log(row(phase.name, phase.seconds));
if (tests) {
  console.log(row('  vitest (wall)', tests.vitest.wallSeconds));
  for (const [name, p] of Object.entries(tests.vitest.projects))
    console.log(`      ${name}: ${p.files} files, ${Math.round(p.fileSeconds)} s of file time`);
  if (tests.browser) console.log(row(`  browser, ${tests.browser.tests} tests (wall)`, tests.browser.wallSeconds));
}
console.log(row('total', totalSeconds));
if (tests?.slowest.length) {
  console.log('  the 20 slowest files:');
  for (const f of tests.slowest)
    console.log(`    ${f.seconds.toFixed(1).padStart(7)} s  ${f.project.padEnd(9)} ${f.file}`);
}

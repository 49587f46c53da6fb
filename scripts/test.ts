/**
 * `npm test`: builds what is missing, then runs the unit tests, the integration suites on PGlite and
 * (when a server is reachable, or always in CI) PostgreSQL, and the browser tests in Chromium.
 * In CI (CI=true) or with REQUIRE_POSTGRES=1 / REQUIRE_E2E=1, a suite that cannot run fails the run.
 * Ends with one line: "tests: N passed, N failed, N skipped".
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CHROMIUM_INSTALL, CHROMIUM_PATH } from '../tests/helpers/chromium.ts';
import { isPostgresReachable, POSTGRES_ADMIN_URL } from '../tests/helpers/postgres.ts';
import { ensureBuild } from './ensure-build.js';
import { type PlaywrightTimings, writeTestFigures } from './test-figures.ts';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
const flag = (name: string) => ['1', 'true', 'yes'].includes(String(process.env[name] ?? '').toLowerCase());
const ci = flag('CI');
const requirePostgres = ci || flag('REQUIRE_POSTGRES');
const requireE2e = ci || flag('REQUIRE_E2E');

const problems: string[] = [];
/** Each failed test by name, with the first line of its failure: printed again at the very end. */
const failures: string[] = [];
const firstLine = (text: string | undefined) => (text ?? '').trim().split('\n')[0]?.slice(0, 300) ?? '';
const totals = { passed: 0, failed: 0, skipped: 0 };
fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });

ensureBuild();

const projects = ['unit', 'pglite'];
if (await isPostgresReachable()) {
  projects.push('postgres');
} else if (requirePostgres) {
  problems.push(`The PostgreSQL suite is mandatory here but no server answers at ${POSTGRES_ADMIN_URL}.`);
} else {
  console.warn(`\n! PostgreSQL suite skipped: no server at ${POSTGRES_ADMIN_URL} (CI runs it).\n`);
}

const vitestReport = path.join(root, '.tmp', 'vitest-report.json');
fs.rmSync(vitestReport, { force: true });
const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10;
const vitestStarted = performance.now();
const vitest = spawnSync(
  bin('vitest'),
  [
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=json',
    '--reporter=./scripts/vitest-timings.ts',
    `--outputFile.json=${vitestReport}`,
  ],
  // Files marked "One database" run on PostgreSQL when this run has it (tests/one-database.ts).
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ONE_DATABASE: projects.includes('postgres') ? 'postgres' : 'pglite' },
  },
);
const vitestSeconds = seconds(vitestStarted);
let browser: PlaywrightTimings | undefined;
if (fs.existsSync(vitestReport)) {
  const report = JSON.parse(fs.readFileSync(vitestReport, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    testResults: {
      name: string;
      message?: string;
      assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
    }[];
  };
  for (const file of report.testResults) {
    const where = path.relative(root, file.name);
    const failed = file.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failed) failures.push(`${where} › ${test.fullName}: ${firstLine(test.failureMessages[0])}`);
    if (failed.length === 0 && file.message) failures.push(`${where}: ${firstLine(file.message)}`);
  }
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
}
if (vitest.status !== 0) problems.push(`vitest exited with status ${vitest.status}.`);

if (fs.existsSync(CHROMIUM_PATH)) {
  const e2eReport = path.join(root, '.tmp', 'playwright-report.json');
  fs.rmSync(e2eReport, { force: true });
  const e2eStarted = performance.now();
  const e2e = spawnSync(bin('playwright'), ['test'], { cwd: root, stdio: 'inherit' });
  if (fs.existsSync(e2eReport)) {
    const report = JSON.parse(fs.readFileSync(e2eReport, 'utf8')) as PlaywrightReport;
    browser = { wallSeconds: seconds(e2eStarted), report };
    const stats = report.stats;
    collectPlaywrightFailures(report.suites, []);
    totals.passed += stats.expected + stats.flaky;
    totals.failed += stats.unexpected;
    totals.skipped += stats.skipped;
    if (requireE2e && stats.expected + stats.flaky === 0) problems.push('The browser suite ran no test.');
  } else {
    problems.push('The browser suite produced no report.');
  }
  if (e2e.status !== 0) problems.push(`playwright exited with status ${e2e.status}.`);
} else if (requireE2e) {
  problems.push(
    `The browser suite is mandatory here but Chromium is missing at ${CHROMIUM_PATH} (${CHROMIUM_INSTALL}).`,
  );
} else {
  console.warn(`\n! Browser suite skipped: no Chromium at ${CHROMIUM_PATH} (${CHROMIUM_INSTALL}).\n`);
}

writeTestFigures({ projects, vitestSeconds, browser });

console.log('');
if (failures.length > 0) {
  console.error('Failed tests:');
  for (const failure of failures) console.error(`  ✗ ${failure}`);
}
for (const problem of problems) console.error(`✗ ${problem}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(problems.length > 0 || totals.failed > 0 ? 1 : 0);

export interface PlaywrightSuite {
  title: string;
  file?: string;
  suites?: PlaywrightSuite[];
  specs?: {
    title: string;
    file: string;
    tests: { status: string; results: { duration?: number; error?: { message?: string } }[] }[];
  }[];
}
export interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  suites: PlaywrightSuite[];
}

function collectPlaywrightFailures(suites: PlaywrightSuite[] | undefined, titles: string[]): void {
  for (const suite of suites ?? []) {
    const inner = suite.file && titles.length === 0 ? [] : [...titles, suite.title];
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests.filter((t) => t.status === 'unexpected')) {
        const error = test.results.at(-1)?.error?.message;
        failures.push(`${spec.file} › ${[...inner, spec.title].join(' › ')}: ${firstLine(error)}`);
      }
    }
    collectPlaywrightFailures(suite.suites, inner);
  }
}

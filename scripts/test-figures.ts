/**
 * The figures of a test run, as data: `npm test` writes .tmp/test-figures.json (each suite's wall
 * time, each vitest project's files and their summed time, the 20 slowest files), and `.ci/run`
 * adds its own phases (scripts/ci-figures.ts). What one run measured, never asserted.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PlaywrightReport, PlaywrightSuite } from './test.ts';
import { type FileTiming, VITEST_TIMINGS } from './vitest-timings.ts';

export const TEST_FIGURES = path.resolve(import.meta.dirname, '..', '.tmp', 'test-figures.json');

export interface PlaywrightTimings {
  wallSeconds: number;
  report: PlaywrightReport;
}

export interface TestFigures {
  vitest: { wallSeconds: number; projects: Record<string, { files: number; fileSeconds: number }> };
  browser?: { wallSeconds: number; tests: number; fileSeconds: number };
  slowest: FileTiming[];
}

const round = (n: number) => Math.round(n * 10) / 10;

/** Seconds per spec file of a Playwright report: the sum of its tests' runs. */
function browserFiles(suites: PlaywrightSuite[] | undefined, into = new Map<string, number>()): Map<string, number> {
  for (const suite of suites ?? []) {
    for (const spec of suite.specs ?? []) {
      const ms = spec.tests.flatMap((t) => t.results).reduce((sum, r) => sum + (r.duration ?? 0), 0);
      const file = path.join('tests', 'e2e', spec.file);
      into.set(file, (into.get(file) ?? 0) + ms / 1000);
    }
    browserFiles(suite.suites, into);
  }
  return into;
}

export function writeTestFigures(run: { projects: string[]; vitestSeconds: number; browser?: PlaywrightTimings }) {
  const timings: { files: FileTiming[] } = fs.existsSync(VITEST_TIMINGS)
    ? JSON.parse(fs.readFileSync(VITEST_TIMINGS, 'utf8'))
    : { files: [] };
  const projects: TestFigures['vitest']['projects'] = {};
  for (const name of run.projects) {
    const mine = timings.files.filter((f) => f.project === name);
    projects[name] = { files: mine.length, fileSeconds: round(mine.reduce((sum, f) => sum + f.seconds, 0)) };
  }
  const files: FileTiming[] = [...timings.files];
  let browser: TestFigures['browser'];
  if (run.browser) {
    const perFile = browserFiles(run.browser.report.suites);
    for (const [file, seconds] of perFile) files.push({ project: 'browser', file, seconds: round(seconds), state: '' });
    const stats = run.browser.report.stats;
    browser = {
      wallSeconds: run.browser.wallSeconds,
      tests: stats.expected + stats.unexpected + stats.flaky,
      fileSeconds: round([...perFile.values()].reduce((a, b) => a + b, 0)),
    };
  }
  const figures: TestFigures = {
    vitest: { wallSeconds: run.vitestSeconds, projects },
    ...(browser ? { browser } : {}),
    slowest: files.sort((a, b) => b.seconds - a.seconds).slice(0, 20),
  };
  fs.writeFileSync(TEST_FIGURES, JSON.stringify(figures, null, 2));
}

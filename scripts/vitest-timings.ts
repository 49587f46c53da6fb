/**
 * A vitest reporter that writes each test file's time, per project, to .tmp/vitest-timings.json for
 * `npm test`'s figures (scripts/test-figures.ts): the file's whole time (import, hooks and tests)
 * as vitest measured it, and the run's wall time.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export interface FileTiming {
  project: string;
  file: string;
  seconds: number;
  state: string;
}

export const VITEST_TIMINGS = path.resolve(import.meta.dirname, '..', '.tmp', 'vitest-timings.json');

export default class TimingsReporter implements Reporter {
  private readonly files: FileTiming[] = [];
  private started = performance.now();

  onTestRunStart(): void {
    this.started = performance.now();
  }

  onTestModuleEnd(module: TestModule): void {
    const diagnostic = module.diagnostic();
    const seconds = (diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.duration) / 1000;
    this.files.push({
      project: module.project.name,
      file: path.relative(path.resolve(import.meta.dirname, '..'), module.moduleId),
      seconds: Math.round(seconds * 10) / 10,
      state: module.state(),
    });
  }

  onTestRunEnd(): void {
    fs.mkdirSync(path.dirname(VITEST_TIMINGS), { recursive: true });
    const wallSeconds = Math.round((performance.now() - this.started) / 100) / 10;
    fs.writeFileSync(VITEST_TIMINGS, JSON.stringify({ wallSeconds, files: this.files }, null, 2));
  }
}

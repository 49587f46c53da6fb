/**
 * `npm run report:security`: runs the security and reliability suites on PGlite and PostgreSQL (and
 * the browser checks in Chromium), then writes docs/security.md from the figures they recorded
 * (tests/helpers/figures.ts). `npm run soak` runs the same suites with SOAK=1 (longer loops) and
 * writes .tmp/security-soak.md instead. `--render-only` skips the runs and renders what was recorded.
 *
 * The numbers in the report are what the tests measured in this run; a failing suite is reported as
 * failing and the script exits non-zero.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM_PATH } from '../tests/helpers/chromium.ts';
import { FIGURES_DIR } from '../tests/helpers/figures.ts';
import { isPostgresReachable } from '../tests/helpers/postgres.ts';
import { ensureBuild } from './ensure-build.js';
import { renderSecurityReport, type Figure, type SuiteRun } from './security-report.ts';

const root = path.resolve(import.meta.dirname, '..');
const args = new Set(process.argv.slice(2));
const soak = args.has('--soak') || process.env.SOAK === '1';
const renderOnly = args.has('--render-only');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

/** The suites that record figures. */
export const SECURITY_SUITES = [
  'tests/security',
  'tests/reliability',
  'tests/integration/partners/registration-race.test.ts',
  'tests/integration/support/live.test.ts',
  'tests/integration/notifications',
];
const BROWSER_SPECS = ['tests/e2e/csp.spec.ts', 'tests/e2e/xss.spec.ts'].filter((f) =>
  fs.existsSync(path.join(root, f)),
);

const runs: SuiteRun[] = [];
const started = Date.now();
if (!renderOnly) {
  ensureBuild();
  fs.rmSync(FIGURES_DIR, { recursive: true, force: true });
  const env = { ...process.env, ...(soak ? { SOAK: '1' } : {}) };
  const projects = ['pglite', ...((await isPostgresReachable()) ? ['postgres'] : [])];
  const vitest = spawnSync(bin('vitest'), ['run', ...projects.flatMap((p) => ['--project', p]), ...SECURITY_SUITES], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  runs.push({ name: `vitest (${projects.join(', ')})`, ok: vitest.status === 0 });
  if (BROWSER_SPECS.length > 0 && fs.existsSync(CHROMIUM_PATH)) {
    const e2e = spawnSync(bin('playwright'), ['test', ...BROWSER_SPECS], { cwd: root, env, stdio: 'inherit' });
    runs.push({ name: 'Chromium', ok: e2e.status === 0 });
  }
}

const figures: Figure[] = fs.existsSync(FIGURES_DIR)
  ? fs
      .readdirSync(FIGURES_DIR)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => JSON.parse(fs.readFileSync(path.join(FIGURES_DIR, f), 'utf8')) as Figure)
  : [];

const markdown = renderSecurityReport({
  figures,
  runs,
  soak,
  minutes: (Date.now() - started) / 60_000,
  machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`,
  commit:
    spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim() || 'unknown',
});
const out = soak ? path.join(root, '.tmp', 'security-soak.md') : path.join(root, 'docs', 'security.md');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, markdown);
console.log(`\n${figures.length} figures written to ${path.relative(root, out)}`);
process.exit(runs.every((r) => r.ok) ? 0 : 1);

/**
 * DEP-01 / DEP-02: what we ship is known. Install scripts are reviewed (an allowlist), the lockfile is
 * committed, secrets cannot be committed by accident, the client build carries no source maps or
 * keys, and `npm audit` finds no high or critical advisory in the runtime dependencies when the
 * registry offers its audit service (the figure says when it could not be asked).
 *
 * One database: the lockfile, the install scripts and the build are the same for every database.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordFigure } from '../helpers/figures.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

/**
 * Packages allowed an install script, and why. Anything new with one fails here until reviewed.
 * `allowScripts` in package.json says which of them npm may run.
 */
const REVIEWED_INSTALL_SCRIPTS: Record<string, string> = {
  esbuild: 'fetches its platform binary from the npm registry (optionalDependencies); used by Vite at build time',
  node: 'the node@22 devDependency links the pinned Node.js binary from the npm registry',
  '@mdn/mdn-http-observatory':
    'test only; its script downloads lists from the internet and is not run (allowScripts: false)',
  node_extra_ca_certs_mozilla_bundle: 'test only (Observatory); downloads a CA bundle, not run (allowScripts: false)',
  libpq: 'test only (Observatory → pg-native, never loaded by our code); native build not run (allowScripts: false)',
  '@firebase/util':
    'test only (the Firebase SDK drives the callable test); its script reads an optional config variable, not run (allowScripts: false)',
  protobufjs: 'test only (via the Firebase SDK); its script prints a version notice, not run (allowScripts: false)',
};

const SECRET_PATTERNS: Array<[string, RegExp]> = [
  ['AWS access key', /AKIA[0-9A-Z]{16}/],
  ['private key', /-----BEGIN (?:RSA |EC |OPENSSH )?PRIVATE KEY-----/],
  // Credentials in a URL, except on the reserved example domains tests use (RFC 2606) and
  // passwords that are template placeholders (`${password}`) filled in at run time.
  [
    'credentials in a URL',
    /\b(?:postgres|postgresql|smtps?|https?):\/\/[^\s:/@'"`]+:[^\s@'"`${}]{6,}@(?![\w.-]*\bexample\b)/,
  ],
  ['GitHub token', /\bgh[pousr]_[A-Za-z0-9]{36}\b/],
];

describe('dependencies and secrets (DEP-01, DEP-02)', () => {
  it('every package with an install script has been reviewed', () => {
    const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const withScripts = Object.entries(lock.packages)
      .filter(([, meta]) => meta.hasInstallScript)
      .map(([key]) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.length).toBeGreaterThan(0);
    expect(withScripts.filter((name) => !(name in REVIEWED_INSTALL_SCRIPTS))).toEqual([]);
  });

  it('the lockfile is committed and .env files cannot be', () => {
    const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n');
    expect(tracked).toContain('package-lock.json');
    expect(tracked.filter((f) => /(^|\/)\.env(\.|$)/.test(f))).toEqual([]);
    for (const file of ['.env', '.env.production']) {
      expect(spawnSync('git', ['check-ignore', '-q', file], { cwd: root }).status).toBe(0);
    }
  });

  it('no tracked file and no client build file holds a secret; the build ships no source maps', () => {
    const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f && !f.endsWith('package-lock.json') && fs.existsSync(path.join(root, f)));
    const clientDir = path.join(root, 'build', 'client');
    const built = fs.existsSync(clientDir)
      ? (fs.readdirSync(clientDir, { recursive: true }) as string[]).map((f) => path.join('build', 'client', f))
      : [];
    expect(built.filter((f) => f.endsWith('.map'))).toEqual([]);
    const hits: string[] = [];
    for (const file of [...tracked, ...built]) {
      const full = path.join(root, file);
      if (!fs.statSync(full).isFile() || fs.statSync(full).size > 2_000_000) continue;
      const text = fs.readFileSync(full, 'utf8');
      for (const [label, pattern] of SECRET_PATTERNS) if (pattern.test(text)) hits.push(`${file}: ${label}`);
    }
    recordFigure('secrets-in-repo', {
      checks: ['DEP-02'],
      label: 'Secrets in the repository and build',
      values: { filesScanned: tracked.length + built.length, hits: hits.length },
    });
    expect(hits).toEqual([]);
  });

  it('npm audit: no high or critical advisory in runtime dependencies', (context) => {
    const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], { cwd: root, encoding: 'utf8', timeout: 90_000 });
    let report: {
      metadata?: { vulnerabilities?: Record<string, number> };
      error?: { summary?: string };
      message?: string;
    } = {};
    try {
      report = JSON.parse(run.stdout) as typeof report;
    } catch {
      // No JSON: npm could not reach its audit service at all.
    }
    const counts = report.metadata?.vulnerabilities;
    if (!counts) {
      const why =
        (report.error?.summary || report.message || run.stderr || 'no answer').split('\n').find((l) => l.trim()) ??
        'no answer';
      recordFigure('npm-audit', {
        checks: ['DEP-01'],
        label: 'npm audit (runtime)',
        values: { ran: false, reason: why.trim() },
      });
      context.skip(`npm audit could not ask the registry: ${why.trim()}`);
      return;
    }
    const highOrCritical = (counts.high ?? 0) + (counts.critical ?? 0);
    recordFigure('npm-audit', {
      checks: ['DEP-01'],
      label: 'npm audit (runtime)',
      values: { ran: true, ...counts, highOrCritical },
    });
    expect(highOrCritical).toBe(0);
  });
});

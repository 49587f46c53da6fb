import { describe, expect, it } from 'vitest';
import { type Figure, renderSecurityReport } from './security-report.ts';

const figure = (name: string, database: string, values: Record<string, unknown>): Figure => ({
  name,
  database,
  soak: false,
  at: '2026-11-22T00:00:00.000Z',
  checks: ['DATA-02'],
  label: name,
  values,
});

const render = (figures: Figure[]) =>
  renderSecurityReport({
    figures,
    runs: [{ name: 'vitest', ok: true }],
    soak: false,
    minutes: 1,
    machine: '2 cores',
    commit: 'abc1234',
  });

const row = (markdown: string, title: string) => markdown.split('\n').find((l) => l.startsWith(`| ${title} |`)) ?? '';

describe('the security report', () => {
  it('says a crash run met its target only with 0 lost, 0 reopen failures and 0 orphans over ≥20 runs', () => {
    const ok = render([
      figure('crash-pglite', 'pglite', { runs: 20, acked: 900, lost: 0, reopenFailures: 0, orphanFiles: 0 }),
    ]);
    expect(row(ok, 'kill -9 crash runs, PGlite')).toMatch(/20 runs, 900 acknowledged, 0 lost.*\| yes \|$/);
    const lost = render([
      figure('crash-pglite', 'pglite', { runs: 20, acked: 900, lost: 1, reopenFailures: 0, orphanFiles: 0 }),
    ]);
    expect(row(lost, 'kill -9 crash runs, PGlite')).toMatch(/\| \*\*no\*\* \|$/);
    const few = render([
      figure('crash-pglite', 'pglite', { runs: 5, acked: 90, lost: 0, reopenFailures: 0, orphanFiles: 0 }),
    ]);
    expect(row(few, 'kill -9 crash runs, PGlite')).toMatch(/\| \*\*no\*\* \|$/);
  });

  it('requires the negative control to lose writes', () => {
    expect(
      row(
        render([figure('crash-control', 'postgres', { runs: 6, acked: 5000, lost: 0 })]),
        'Negative control (synchronous_commit=off)',
      ),
    ).toMatch(/\*\*no\*\*/);
    expect(
      row(
        render([figure('crash-control', 'postgres', { runs: 6, acked: 5000, lost: 12 })]),
        'Negative control (synchronous_commit=off)',
      ),
    ).toMatch(/12 lost \| yes/);
  });

  it('sums a figure over both databases and marks what no suite measured', () => {
    const md = render([
      figure('authz-matrix', 'pglite', {
        routes: 40,
        principals: 7,
        cells: 280,
        unexpectedAllows: 0,
        unexpectedDenies: 0,
        idorPairs: 600,
        idorLeaks: 0,
      }),
      figure('authz-matrix', 'postgres', {
        routes: 40,
        principals: 7,
        cells: 280,
        unexpectedAllows: 1,
        unexpectedDenies: 0,
        idorPairs: 600,
        idorLeaks: 0,
      }),
    ]);
    expect(row(md, 'Authorization matrix')).toContain('560 cells');
    expect(row(md, 'Authorization matrix')).toMatch(/1 unexpected allows.*\*\*no\*\*/);
    expect(row(md, 'IDOR property runs')).toMatch(/1,200 pairs, 0 leaks \| yes/);
    expect(row(md, 'Secrets in logs')).toContain('not measured in this run');
  });

  it('judges the upload corpus by what was wrongly accepted, not by how many mutations stayed valid images', () => {
    const values = { handCrafted: 74, mutated: 1000, mutatedAccepted: 700, acceptedNonImage: 0, orphanOrOutside: 0 };
    expect(row(render([figure('upload-corpus', 'pglite', values)]), 'Upload corpus')).toMatch(/\| yes \|$/);
    const leaked = render([figure('upload-corpus', 'pglite', { ...values, acceptedNonImage: 1 })]);
    expect(row(leaked, 'Upload corpus')).toMatch(/\*\*no\*\*/);
  });

  it('escapes table cells', () => {
    const md = render([figure('npm-audit', 'pglite', { ran: false, reason: 'a | b' })]);
    expect(row(md, 'Dependency audit')).toContain('a \\| b');
  });
});

/**
 * The 29 support-desk advisories of docs/security-checks.md#advisory-regressions, as data, and the
 * helper that names one regression test after each. The tests live in tests/security/advisories/,
 * one file per theme (ADVISORY_FILES); each file records which of its advisories passed, and the
 * 'advisories' figure is written over all of them (tests/helpers/figure-parts.ts). The mapping test
 * (tests/security/advisories/mapping.test.ts) fails if this table and the tests defined disagree.
 *
 *  #1  CVE-2026-115725  Chatwoot   access (also idor.test.ts, authz/foreign-tickets.test.ts AZ-03)
 *  #2  CVE-2021-3740    Chatwoot   sessions
 *  #3  CVE-2021-3741    Chatwoot   licence-files (corpus in uploads/corpus.test.ts)
 *  #4  CVE-2022-3741    Chatwoot   sessions (registration per-IP limit: uploads/address-limit.test.ts UP-08)
 *  #5  CVE-2022-40816   Zammad     access (live streams as a channel of the matrix: authz/matrix.test.ts)
 *  #6  CVE-2022-40817   Zammad     access (every route × principal: authz/matrix.test.ts AZ-02)
 *  #7  CVE-2022-35490   Zammad     sessions
 *  #8  CVE-2024-33668   Zammad     licence-files (also uploads/foreign-file.test.ts UP-09)
 *  #9  CVE-2020-26030   Zammad     access (we have no SSO; the test shows no header is an identity)
 *  #10 CVE-2018-1000154 Zammad     rendering (SSR) and tests/e2e/xss.spec.ts (Chromium)
 *  #11 CVE-2026-84458   Zammad     access (we have no SSO auto-link; the rule "verified comes from the DB" is tested)
 *  #12 CVE-2026-102489  Zammad     sessions (SSE is our live channel; there is no websocket)
 *  #13 GHSA-7f39-jjj6-7fwv Zammad  rendering
 *  #14 CVE-2026-32754   FreeScout  rendering (the partner decision mails are our templates with user text)
 *  #15 CVE-2026-40591   FreeScout  access
 *  #16 CVE-2026-40496   FreeScout  licence-files
 *  #17 CVE-2026-41902   FreeScout  sessions (our invitation-like links: verification and reset)
 *  #18 CVE-2026-27637   FreeScout  sessions
 *  #19 CVE-2026-45294   FreeScout  sessions
 *  #20 CVE-2026-107393  FreeScout  sessions
 *  #21 GHSA-fffc-phh8-5h4v FreeScout rendering ('strict-dynamic' nonce CSP + uploads never scriptable; header details: the headers suite)
 *  #22 GHSA-7wcq-2qmv-mvcm FreeScout covered elsewhere: tests/security/log-secrets.test.ts (SMTP credentials never logged)
 *  #23 CVE-2020-24881   osTicket   rendering
 *  #24 CVE-2020-24917   osTicket   licence-files
 *  #25 CVE-2026-22200   osTicket   rendering (review gate: we render nothing to PDF)
 *  #26 CVE-2004-0613    osTicket   licence-files (no PHP here; nothing uploaded is ever served or executed)
 *  #27 CVE-2024-0916    UVdesk     licence-files (also the anonymous row of authz/matrix.test.ts)
 *  #28 CVE-2025-71419   UVdesk     rendering (admin- and operator-configured identifiers)
 *  #29 CVE-2025-71420   UVdesk     access (also idor.test.ts, authz/foreign-tickets.test.ts)
 * Not applicable: none. Where we lack the vulnerable feature (SSO, websockets, PHP, PDF export),
 * the weakness behind it still has a surface here, and that surface is what the test checks.
 */
import { it } from 'vitest';
import { recordFigurePart } from './figure-parts.ts';

type Coverage = { status: 'here' } | { status: 'elsewhere'; file: string } | { status: 'not-applicable'; why: string };
export interface Advisory {
  n: number;
  id: string;
  product: string;
  coverage: Coverage;
}

const here = { status: 'here' } as const;
export const ADVISORIES: Advisory[] = [
  { n: 1, id: 'CVE-2026-115725', product: 'Chatwoot', coverage: here },
  { n: 2, id: 'CVE-2021-3740', product: 'Chatwoot', coverage: here },
  { n: 3, id: 'CVE-2021-3741', product: 'Chatwoot', coverage: here },
  { n: 4, id: 'CVE-2022-3741', product: 'Chatwoot', coverage: here },
  { n: 5, id: 'CVE-2022-40816', product: 'Zammad', coverage: here },
  { n: 6, id: 'CVE-2022-40817', product: 'Zammad', coverage: here },
  { n: 7, id: 'CVE-2022-35490', product: 'Zammad', coverage: here },
  { n: 8, id: 'CVE-2024-33668', product: 'Zammad', coverage: here },
  { n: 9, id: 'CVE-2020-26030', product: 'Zammad', coverage: here },
  { n: 10, id: 'CVE-2018-1000154', product: 'Zammad', coverage: here },
  { n: 11, id: 'CVE-2026-84458', product: 'Zammad', coverage: here },
  { n: 12, id: 'CVE-2026-102489', product: 'Zammad', coverage: here },
  { n: 13, id: 'GHSA-7f39-jjj6-7fwv', product: 'Zammad', coverage: here },
  { n: 14, id: 'CVE-2026-32754', product: 'FreeScout', coverage: here },
  { n: 15, id: 'CVE-2026-40591', product: 'FreeScout', coverage: here },
  { n: 16, id: 'CVE-2026-40496', product: 'FreeScout', coverage: here },
  { n: 17, id: 'CVE-2026-41902', product: 'FreeScout', coverage: here },
  { n: 18, id: 'CVE-2026-27637', product: 'FreeScout', coverage: here },
  { n: 19, id: 'CVE-2026-45294', product: 'FreeScout', coverage: here },
  { n: 20, id: 'CVE-2026-107393', product: 'FreeScout', coverage: here },
  { n: 21, id: 'GHSA-fffc-phh8-5h4v', product: 'FreeScout', coverage: here },
  {
    n: 22,
    id: 'GHSA-7wcq-2qmv-mvcm',
    product: 'FreeScout',
    coverage: { status: 'elsewhere', file: 'tests/security/log-secrets.test.ts' },
  },
  { n: 23, id: 'CVE-2020-24881', product: 'osTicket', coverage: here },
  { n: 24, id: 'CVE-2020-24917', product: 'osTicket', coverage: here },
  { n: 25, id: 'CVE-2026-22200', product: 'osTicket', coverage: here },
  { n: 26, id: 'CVE-2004-0613', product: 'osTicket', coverage: here },
  { n: 27, id: 'CVE-2024-0916', product: 'UVdesk', coverage: here },
  { n: 28, id: 'CVE-2025-71419', product: 'UVdesk', coverage: here },
  { n: 29, id: 'CVE-2025-71420', product: 'UVdesk', coverage: here },
];

/** The files of tests/security/advisories/ that define advisory tests (each a part of the figure). */
export const ADVISORY_FILES = ['access', 'sessions', 'licence-files', 'rendering'] as const;
export type AdvisoryFile = (typeof ADVISORY_FILES)[number];

/** Advisories whose named test this file defined, and whose test ran to its end. */
const defined = new Set<number>();
const passed = new Set<number>();

/** One named regression test: `<id> (<product>): <what a client observes>`. */
export function advisory(n: number, title: string, body: () => Promise<void> | void, timeout?: number) {
  const entry = ADVISORIES.find((a) => a.n === n);
  if (!entry) throw new Error(`no advisory #${n} in the table`);
  defined.add(n);
  it(
    `${entry.id} (${entry.product}): ${title}`,
    async () => {
      await body();
      passed.add(n);
    },
    timeout,
  );
}

/**
 * Records which advisories this file defined and passed (call it when the file ends); the last
 * advisory file of a run writes the 'advisories' figure over all of them.
 */
export function recordAdvisoryPart(file: AdvisoryFile) {
  const values = { defined: [...defined], passed: [...passed] };
  // The next advisory file may run in this same worker (its modules are not re-loaded per file).
  defined.clear();
  passed.clear();
  recordFigurePart('advisories', file, ADVISORY_FILES, values, (parts) => {
    const all = Object.values(parts);
    const markedHere = ADVISORIES.filter((a) => a.coverage.status === 'here').map((a) => a.n);
    const coveredHere = markedHere.filter((n) => all.some((p) => p.passed.includes(n))).length;
    const elsewhere = ADVISORIES.filter((a) => a.coverage.status === 'elsewhere').length;
    const notApplicable = ADVISORIES.filter((a) => a.coverage.status === 'not-applicable').length;
    return {
      checks: ['advisories'],
      label: 'Advisory regressions',
      values: { advisories: ADVISORIES.length, covered: coveredHere + elsewhere, coveredHere, notApplicable },
    };
  });
}

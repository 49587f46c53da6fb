/** Renders docs/security.md from the figures the security suites recorded (pure: unit-tested). */

export interface Figure {
  name: string;
  database: 'pglite' | 'postgres' | 'none' | string;
  soak: boolean;
  at: string;
  checks: string[];
  label: string;
  values: Record<string, unknown>;
}

export interface SuiteRun {
  name: string;
  ok: boolean;
}

interface Headline {
  figure: string;
  target: string;
  /** What was measured, or null when no suite recorded it. */
  measured: (f: Finder) => string | null;
  met: (f: Finder) => boolean | null;
}

type Finder = {
  /** Values of one figure for a database kind (or any kind when omitted). */
  get(name: string, database?: string): Record<string, unknown> | undefined;
  /** Sum of a numeric value over every database kind that recorded the figure. */
  sum(name: string, key: string): number | undefined;
};

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const fmt = (v: number) => v.toLocaleString('en-NZ');
const all = (...values: Array<number | undefined>) => values.every((v) => v !== undefined);

const HEADLINES: Headline[] = [
  {
    figure: 'Bad inputs tried (fast-check)',
    target: '≥200 per operation per run; 0 5xx, 0 unhandled rejections, 0 invalid rows',
    measured: (f) => {
      const inputs = f.sum('fuzz', 'inputs');
      if (inputs === undefined) return null;
      const ops = num(f.get('fuzz')?.operations);
      return `${fmt(inputs)} inputs over ${ops ?? '?'} operations (both databases), ${f.sum('fuzz', 'fiveHundreds') ?? '?'} × 5xx, ${f.sum('fuzz', 'unhandled') ?? '?'} unhandled, ${f.sum('fuzz', 'invalidRowsStored') ?? '?'} invalid rows; seed ${String(f.get('fuzz')?.seed ?? '?')}`;
    },
    met: (f) => {
      const bad = [f.sum('fuzz', 'fiveHundreds'), f.sum('fuzz', 'unhandled'), f.sum('fuzz', 'invalidRowsStored')];
      return all(...bad) ? bad.every((v) => v === 0) : null;
    },
  },
  {
    figure: 'Authorization matrix',
    target: '100% of routes × 7 principals; 0 unexpected allows, 0 unexpected denies',
    measured: (f) => {
      const m = f.get('authz-matrix');
      if (!m) return null;
      return `${m.routes} routes × ${m.principals} principals = ${fmt(f.sum('authz-matrix', 'cells') ?? 0)} cells (both databases); ${f.sum('authz-matrix', 'unexpectedAllows')} unexpected allows, ${f.sum('authz-matrix', 'unexpectedDenies')} unexpected denies; ${m.streamsCovered ?? '?'} streams`;
    },
    met: (f) => {
      const a = f.sum('authz-matrix', 'unexpectedAllows');
      const d = f.sum('authz-matrix', 'unexpectedDenies');
      return all(a, d) ? a === 0 && d === 0 : null;
    },
  },
  {
    figure: 'IDOR property runs',
    target: '≥1,000 (user, foreign object) pairs; 0 leaks',
    measured: (f) => {
      const pairs = f.sum('authz-matrix', 'idorPairs');
      return pairs === undefined ? null : `${fmt(pairs)} pairs, ${f.sum('authz-matrix', 'idorLeaks')} leaks`;
    },
    met: (f) => {
      const pairs = f.sum('authz-matrix', 'idorPairs');
      const leaks = f.sum('authz-matrix', 'idorLeaks');
      return all(pairs, leaks) ? pairs! >= 1000 && leaks === 0 : null;
    },
  },
  {
    figure: 'kill -9 crash runs, PGlite',
    target: '≥20 runs; 0 acknowledged writes lost, 0 reopen failures, 0 orphan files',
    measured: (f) => crash(f.get('crash-pglite')),
    met: (f) => crashMet(f.get('crash-pglite')),
  },
  {
    figure: 'kill -9 crash runs, PostgreSQL',
    target: '≥20 runs; 0 acknowledged writes lost, 0 reopen failures, 0 orphan files',
    measured: (f) => crash(f.get('crash-postgres')),
    met: (f) => crashMet(f.get('crash-postgres')),
  },
  {
    figure: 'Negative control (synchronous_commit=off)',
    target: 'lost > 0 (the harness detects loss)',
    measured: (f) => {
      const c = f.get('crash-control');
      return c ? `${c.runs} runs, ${fmt(num(c.acked) ?? 0)} acknowledged, ${c.lost} lost` : null;
    },
    met: (f) => {
      const lost = num(f.get('crash-control')?.lost);
      return lost === undefined ? null : lost > 0;
    },
  },
  {
    figure: 'Mail outbox under kill -9, outages and two instances',
    target:
      '0 acknowledged answers left unmailed; duplicates only the mails in flight at a kill; each mail once across instances',
    measured: (f) => {
      const crashes = ['pglite', 'postgres'].map((db) => [db, f.get('notify-crash', db)] as const).filter(([, v]) => v);
      const two = f.get('outbox-two-instances');
      const outage = f.get('outbox-smtp421');
      if (crashes.length === 0 && !two && !outage) return null;
      const parts = crashes.map(
        ([db, v]) =>
          `${db}: ${v!.runs} kills, ${v!.acked} answers acknowledged, ${v!.lost} unmailed, ${v!.duplicates} duplicate deliveries`,
      );
      if (outage) parts.push(`421 outage: ${outage.mails} mails, ${outage.lost} lost, ${outage.duplicates} twice`);
      if (two)
        parts.push(
          `two instances: ${two.mails} mails, ${two.duplicates} twice, split ${JSON.stringify(two.perInstance)}`,
        );
      return parts.join('; ');
    },
    met: (f) => {
      const values = [
        f.get('notify-crash', 'pglite'),
        f.get('notify-crash', 'postgres'),
        f.get('outbox-two-instances'),
        f.get('outbox-smtp421'),
      ];
      if (values.every((v) => v === undefined)) return null;
      return (
        values.every((v) => v === undefined || (v.lost ?? 0) === 0) &&
        (num(f.get('outbox-two-instances')?.duplicates) ?? 0) === 0
      );
    },
  },
  {
    figure: 'Duplicate-submission races',
    target: 'exactly 1 row per burst; 200 concurrent tickets → 200 numbers; retries stored once',
    measured: (f) => {
      const r = f.sum('races-registration', 'bursts');
      const s = f.get('races-support');
      if (r === undefined && !s) return null;
      return `registrations: ${r ?? 0} bursts, ${fmt(f.sum('races-registration', 'attempts') ?? 0)} attempts, ${f.sum('races-registration', 'companiesCreated')} created (control without indexes: ${f.sum('races-registration', 'controlDuplicates')} duplicates); tickets: ${f.sum('races-support', 'ticketCreations')} → ${f.sum('races-support', 'distinctNumbers')} distinct numbers; ${f.sum('races-support', 'idempotentSends')} idempotent retries → ${f.sum('races-support', 'rowsStored')} rows`;
    },
    met: (f) => {
      const bursts = f.sum('races-registration', 'bursts');
      const created = f.sum('races-registration', 'companiesCreated');
      const tickets = f.sum('races-support', 'ticketCreations');
      const distinct = f.sum('races-support', 'distinctNumbers');
      if (!all(bursts, created, tickets, distinct)) return null;
      return (
        bursts === created &&
        tickets === distinct &&
        f.sum('races-support', 'rowsStored')! * 20 === f.sum('races-support', 'idempotentSends')
      );
    },
  },
  {
    figure: 'Reply-after-close races',
    target: '≥100 per database; 0 replies stored after the close',
    measured: (f) => {
      const races = f.sum('races-support', 'closeReplyRaces');
      return races === undefined
        ? null
        : `${races} races, ${f.sum('races-support', 'repliesStoredAfterClose')} stored after the close`;
    },
    met: (f) => {
      const after = f.sum('races-support', 'repliesStoredAfterClose');
      return after === undefined ? null : after === 0;
    },
  },
  {
    figure: 'Upload corpus',
    target: '≥40 hostile files + ≥1,000 mutations; 0 non-JPEG/PNG accepted, 0 files outside storage',
    measured: (f) => {
      const u = f.get('upload-corpus');
      return u
        ? Object.entries(u)
            .map(([k, v]) => `${k} ${String(v)}`)
            .join(', ')
        : null;
    },
    met: (f) => {
      const u = f.get('upload-corpus');
      if (!u) return null;
      const corpus = f.sum('upload-corpus', 'handCrafted');
      const mutated = f.sum('upload-corpus', 'mutated');
      const bad = [f.sum('upload-corpus', 'acceptedNonImage'), f.sum('upload-corpus', 'orphanOrOutside')];
      if (!all(corpus, mutated, ...bad)) return null;
      return num(u.handCrafted)! >= 40 && num(u.mutated)! >= 1000 && bad.every((v) => v === 0);
    },
  },
  {
    figure: 'Headers',
    target: 'Observatory A+ (≥100); 0 CSP violations; every nonce distinct',
    measured: (f) => {
      const h = f.get('headers');
      const b = f.get('csp-browser');
      if (!h && !b) return null;
      return [
        h &&
          Object.entries(h)
            .map(([k, v]) => `${k} ${String(v)}`)
            .join(', '),
        b &&
          Object.entries(b)
            .map(([k, v]) => `${k} ${String(v)}`)
            .join(', '),
      ]
        .filter(Boolean)
        .join('; ');
    },
    met: (f) => {
      const h = f.get('headers');
      return h ? String(h.observatoryGrade) === 'A+' : null;
    },
  },
  {
    figure: 'Secrets in logs',
    target: '0 occurrences of any secret the tests created',
    measured: (f) => {
      const l = f.get('log-secrets');
      return l
        ? `${l.secretsCreated} secrets, ${fmt(num(l.logBytes) ?? 0)} bytes of log, ${l.occurrences} occurrences`
        : null;
    },
    met: (f) => {
      const o = num(f.get('log-secrets')?.occurrences);
      return o === undefined ? null : o === 0;
    },
  },
  {
    figure: 'Advisory regressions',
    target: '≥20 named tests (docs/security-checks.md#advisory-regressions), all passing',
    measured: (f) => {
      const a = f.get('advisories');
      return a
        ? Object.entries(a)
            .map(([k, v]) => `${k} ${String(v)}`)
            .join(', ')
        : null;
    },
    met: (f) => {
      const a = f.get('advisories');
      const here = num(a?.coveredHere);
      return here === undefined ? null : here >= 20;
    },
  },
  {
    figure: 'Dependency audit',
    target: '`npm audit` high/critical = 0 (runtime)',
    measured: (f) => {
      const a = f.get('npm-audit');
      if (!a) return null;
      return a.ran ? `high + critical: ${a.highOrCritical}` : `not run: ${String(a.reason)}`;
    },
    met: (f) => {
      const a = f.get('npm-audit');
      if (!a || !a.ran) return null;
      return num(a.highOrCritical) === 0;
    },
  },
];

function crash(values: Record<string, unknown> | undefined): string | null {
  if (!values) return null;
  return `${values.runs} runs, ${fmt(num(values.acked) ?? 0)} acknowledged, ${values.lost} lost, ${values.unknown ?? '?'} unknown, ${values.reopenFailures} reopen failures, ${values.orphanFiles} orphan files, ${values.missingFiles ?? 0} missing files`;
}

function crashMet(values: Record<string, unknown> | undefined): boolean | null {
  if (!values) return null;
  return (num(values.runs) ?? 0) >= 20 && values.lost === 0 && values.reopenFailures === 0 && values.orphanFiles === 0;
}

function finder(figures: Figure[]): Finder {
  return {
    get: (name, database) =>
      figures.find((f) => f.name === name && (database === undefined || f.database === database))?.values,
    sum(name, key) {
      const values = figures.filter((f) => f.name === name).map((f) => num(f.values[key]));
      return values.length === 0 || values.some((v) => v === undefined)
        ? undefined
        : values.reduce((a, b) => a! + b!, 0);
    },
  };
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function renderSecurityReport(input: {
  figures: Figure[];
  runs: SuiteRun[];
  soak: boolean;
  minutes: number;
  machine: string;
  commit: string;
}): string {
  const f = finder(input.figures);
  const lines: string[] = [
    `# Security and reliability figures${input.soak ? ' (soak run)' : ''}`,
    '',
    '_Written by `npm run report:security` from the figures the suites measured; do not edit by hand._',
    '',
    `Commit \`${input.commit}\` · ${input.machine} · ${input.runs.length > 0 ? `${input.minutes.toFixed(1)} min` : 'rendered from the figures of the last test run'} · ${input.soak ? 'soak loops' : 'quick loops (as in `npm test`)'}`,
    '',
  ];
  if (input.runs.length > 0) {
    lines.push(`Suites: ${input.runs.map((r) => `${r.name} ${r.ok ? 'passed' : '**FAILED**'}`).join(' · ')}`, '');
  }
  lines.push('## Targets and results', '', '| Figure | Target | Measured | Met |', '|---|---|---|---|');
  for (const h of HEADLINES) {
    const measured = h.measured(f);
    const met = measured === null ? null : h.met(f);
    lines.push(
      `| ${h.figure} | ${cell(h.target)} | ${cell(measured ?? 'not measured in this run')} | ${met === null ? '—' : met ? 'yes' : '**no**'} |`,
    );
  }
  lines.push('', '## Every recorded figure', '', '| Figure | Checks | Database | Values |', '|---|---|---|---|');
  for (const fig of input.figures) {
    const values = Object.entries(fig.values)
      .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
      .join(', ');
    lines.push(`| ${cell(fig.label)} | ${fig.checks.join(', ')} | ${fig.database} | ${cell(values)} |`);
  }
  lines.push('');
  return `${lines.join('\n')}\n`;
}

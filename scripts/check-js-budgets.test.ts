import { describe, expect, it } from 'vitest';
import {
  type BuildFacts,
  budgetOf,
  checkBudgets,
  CONSOLE_BUDGET,
  CUSTOMER_BUDGET,
  type Manifest,
  pageScripts,
  report,
} from './check-js-budgets.ts';

/**
 * A small app as React Router's manifest describes it: a root, a static home page, a register page
 * with its own script, a support layout with a list and a ticket (whose client action is split),
 * and the console's inbox with a chart module only it imports.
 */
const manifest: Manifest = {
  url: '/assets/manifest-1.js',
  entry: { module: '/assets/entry.js', imports: ['/assets/framework.js', '/assets/shared.js'] },
  routes: {
    root: { id: 'root', path: '', module: '/assets/root.js', imports: ['/assets/framework.js', '/assets/shared.js'] },
    'routes/home': { id: 'routes/home', parentId: 'root', index: true, module: '/assets/home.js' },
    'routes/register': { id: 'routes/register', parentId: 'root', path: 'register', module: '/assets/register.js' },
    'routes/support': {
      id: 'routes/support',
      parentId: 'root',
      path: 'support',
      module: '/assets/support-layout.js',
      imports: ['/assets/shared.js'],
    },
    'support-index': {
      id: 'support-index',
      parentId: 'routes/support',
      index: true,
      module: '/assets/tickets.js',
      imports: ['/assets/support.js'],
    },
    'routes/support-ticket': {
      id: 'routes/support-ticket',
      parentId: 'routes/support',
      path: 'ticket/:ticketId',
      module: '/assets/ticket.js',
      clientActionModule: '/assets/ticket-action.js',
      imports: ['/assets/support.js', '/assets/thread.js', '/assets/ticket-action.js'],
    },
    'routes/admin': { id: 'routes/admin', parentId: 'root', path: 'admin', module: '/assets/admin-layout.js' },
    'routes/admin-support': {
      id: 'routes/admin-support',
      parentId: 'routes/admin',
      path: 'support',
      module: '/assets/inbox.js',
      imports: ['/assets/support.js', '/assets/chart.js'],
    },
  },
};

const sizes: Record<string, number> = {
  '/assets/manifest-1.js': 3_000,
  '/assets/entry.js': 300,
  '/assets/framework.js': 93_000,
  '/assets/shared.js': 5_000,
  '/assets/root.js': 2_000,
  '/assets/home.js': 900,
  '/assets/register.js': 1_000,
  '/assets/enhance-register.js': 4_000,
  '/assets/zod.js': 23_000,
  '/assets/support-layout.js': 600,
  '/assets/tickets.js': 900,
  '/assets/support.js': 5_000,
  '/assets/ticket.js': 3_000,
  '/assets/ticket-action.js': 100,
  '/assets/thread.js': 5_000,
  '/assets/admin-layout.js': 2_000,
  '/assets/inbox.js': 4_000,
  '/assets/chart.js': 20_000,
  '/assets/reports.js': 6_000,
};

const facts = (over: Partial<BuildFacts> = {}): BuildFacts => ({
  manifest,
  lazyDiscovery: true,
  handles: { 'routes/home': { hydrate: false }, 'routes/register': { hydrate: false, enhance: 'register' } },
  enhancements: { register: { src: '/assets/enhance-register.js', imports: ['/assets/zod.js'] } },
  sizeOf(file) {
    const size = sizes[file];
    if (size === undefined) throw new Error(`no file ${file}`);
    return size;
  },
  ...over,
});

const figureOf = (result: ReturnType<typeof checkBudgets>, page: string) => result.pages.find((p) => p.page === page);

describe('the pages’ JavaScript budgets', () => {
  it('counts what a browser loads to hydrate a page: the entry, each route down to it and their imports, each file once', () => {
    expect(pageScripts(facts(), 'routes/support-ticket').sort()).toEqual(
      [
        '/assets/entry.js',
        '/assets/framework.js',
        '/assets/shared.js',
        '/assets/root.js',
        '/assets/support-layout.js',
        '/assets/ticket.js',
        '/assets/ticket-action.js',
        '/assets/support.js',
        '/assets/thread.js',
      ].sort(),
    );
    // 300 + 93,000 + 5,000 + 2,000 + 600 + 3,000 + 100 + 5,000 + 5,000
    expect(figureOf(checkBudgets(facts()), '/support/ticket/:ticketId')?.bytes).toBe(114_000);
  });

  it('counts the manifest file only when routes are not discovered lazily', () => {
    expect(pageScripts(facts(), 'support-index')).not.toContain('/assets/manifest-1.js');
    expect(pageScripts(facts({ lazyDiscovery: false }), 'support-index')).toContain('/assets/manifest-1.js');
  });

  it('counts nothing of the app for a page without hydration, only its own script and what that imports', () => {
    const result = checkBudgets(facts());
    expect(figureOf(result, '/')).toMatchObject({ bytes: 0, files: 0, hydrates: false });
    expect(figureOf(result, '/register')).toMatchObject({ bytes: 27_000, files: 2, hydrates: false });
  });

  it('holds pages outside the console to the customer budget, every console page to the console’s', () => {
    expect(budgetOf('/')).toBe(CUSTOMER_BUDGET);
    expect(budgetOf('/register')).toBe(CUSTOMER_BUDGET);
    expect(budgetOf('/support/ticket/:ticketId')).toBe(CUSTOMER_BUDGET);
    expect(budgetOf('/account')).toBe(CUSTOMER_BUDGET);
    expect(budgetOf('/administration')).toBe(CUSTOMER_BUDGET);
    expect(budgetOf('/admin')).toBe(CONSOLE_BUDGET);
    expect(budgetOf('/admin/support')).toBe(CONSOLE_BUDGET);
    expect(budgetOf('/admin/support/:ticketId')).toBe(CONSOLE_BUDGET);
    expect(budgetOf('/admin/reports')).toBe(CONSOLE_BUDGET);
    expect(budgetOf('/admin/partners/:companyId')).toBe(CONSOLE_BUDGET);
    expect(budgetOf('/setup')).toBe(CONSOLE_BUDGET);
  });

  it('passes when every page is within its budget', () => {
    // The inbox: 300 + 93,000 + 5,000 + 2,000 + 2,000 + 4,000 + 5,000 + 20,000 = 131,300, under 150 kB.
    const result = checkBudgets(facts());
    expect(figureOf(result, '/admin/support')?.bytes).toBe(131_300);
    expect(result.over).toEqual([]);
    expect(report(result)).toContain('Every page is within its budget.');
    expect(report(result)).toContain('console pages, budget 150.0 kB:\n  /admin/support ');
    expect(report(result)).not.toContain('without a budget');
  });

  it('fails a page over its budget, naming it with its size', () => {
    // A heavier thread puts the ticket page 1,000 bytes over the customer's 120 kB; the list stays under.
    const heavier = facts({ sizeOf: (file) => (file === '/assets/thread.js' ? 12_000 : sizes[file]!) });
    const result = checkBudgets(heavier);
    expect(result.over.map((p) => [p.page, p.bytes])).toEqual([['/support/ticket/:ticketId', 121_000]]);
    expect(report(result)).toContain(
      '✗ /support/ticket/:ticketId (routes/support-ticket): 121,000 bytes of brotli JavaScript, over the customer budget of 120,000 by 1,000',
    );
    expect(report(result)).not.toContain('Every page is within');
  });

  it('fails any console page over the console budget, not only the inbox and the ticket page', () => {
    // A reports page that loads the chart module and zod as it opens:
    // 300 + 93,000 + 5,000 + 2,000 + 2,000 + 6,000 + 20,000 + 23,000 = 151,300.
    const withReports: Manifest = {
      ...manifest,
      routes: {
        ...manifest.routes,
        'routes/admin-reports': {
          id: 'routes/admin-reports',
          parentId: 'routes/admin',
          path: 'reports',
          module: '/assets/reports.js',
          imports: ['/assets/chart.js', '/assets/zod.js'],
        },
      },
    };
    const result = checkBudgets(facts({ manifest: withReports }));
    expect(result.over.map((p) => [p.page, p.bytes])).toEqual([['/admin/reports', 151_300]]);
    expect(report(result)).toContain(
      '✗ /admin/reports (routes/admin-reports): 151,300 bytes of brotli JavaScript, over the console budget of 150,000 by 1,300',
    );
  });

  it('holds a page to its budget to the byte', () => {
    const exactly = (bytes: number) =>
      checkBudgets(facts({ sizeOf: (file) => (file === '/assets/thread.js' ? bytes : sizes[file]!) })).over.length;
    expect(exactly(11_000)).toBe(0); // 120,000 bytes: within
    expect(exactly(11_001)).toBe(1); // 120,001 bytes: over
  });
});

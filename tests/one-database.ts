/**
 * Integration files that do not depend on the database run once instead of once per
 * database: a file says so on one of its first lines, with the reason, as
 *
 *   // One database: <why what it tests is the same on PGlite and PostgreSQL>
 *
 * They run on PostgreSQL when the run has it (npm test sets ONE_DATABASE=postgres then: what
 * production runs, and a file there costs about half its time on PGlite), else on PGlite;
 * vitest.config.ts leaves them out of the other project (oneDatabaseProject). PGlite is PostgreSQL's own engine,
 * so what differs between the two projects is the driver, connections running side by side (locks,
 * races, two app instances), LISTEN/NOTIFY across processes, and durability; a file whose subject
 * is none of these (headers, rendering, pages and forms, authorization, uploads, logs, storage, IMAP)
 * gains nothing from a second run. scripts/one-database.test.ts keeps the marked files free of database-specific branches.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The integration suites' folders: every *.test.ts under them runs on PGlite and on PostgreSQL. */
export const INTEGRATION_DIRS = ['tests/integration', 'tests/security', 'tests/reliability'];
export const INTEGRATION_GLOBS = INTEGRATION_DIRS.map((dir) => `${dir}/**/*.test.ts`);

/** The marker, on a line of its own among the file's first lines, with a reason after it. */
export const ONE_DATABASE = /^\s*(?:\/\/|\*)\s*One database: \S/m;

/** How much of a file's start is read for the marker. */
const HEAD = 3000;

/** Every integration test file, relative to `root`. */
export function integrationFiles(root: string): string[] {
  return INTEGRATION_DIRS.flatMap((dir) =>
    (fs.readdirSync(path.join(root, dir), { recursive: true }) as string[])
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => path.join(dir, file)),
  ).sort();
}

/** The integration files marked "One database", relative to `root`. */
export function oneDatabaseFiles(root: string): string[] {
  return integrationFiles(root).filter((file) =>
    ONE_DATABASE.test(fs.readFileSync(path.join(root, file), 'utf8').slice(0, HEAD)),
  );
}

/** The project that runs the marked files: 'postgres' when npm test runs that project, else 'pglite'. */
export function oneDatabaseProject(env: NodeJS.ProcessEnv = process.env): 'pglite' | 'postgres' {
  return env.ONE_DATABASE === 'postgres' ? 'postgres' : 'pglite';
}

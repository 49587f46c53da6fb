import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { integrationFiles, ONE_DATABASE, oneDatabaseFiles, oneDatabaseProject } from '../tests/one-database.ts';

const root = path.resolve(import.meta.dirname, '..');

/** What makes a test file's run differ by database: a branch on the kind, or a connection of its own. */
const DATABASE_SPECIFIC =
  /testDatabaseKind\s*===\s*'postgres'|runIf\(testDatabaseKind|skipIf\(testDatabaseKind|TEST_DATABASE|databaseUrl|kind: 'postgres'/;

describe('files that run on one database (tests/one-database.ts)', () => {
  const marked = oneDatabaseFiles(root);

  it('are some of the integration files, each with its reason', () => {
    expect(marked.length).toBeGreaterThan(0);
    const all = integrationFiles(root);
    for (const file of marked) expect(all).toContain(file);
    expect(ONE_DATABASE.test('// One database: headers are made before any query.')).toBe(true);
    expect(ONE_DATABASE.test('// One database:')).toBe(false);
  });

  it('do not branch on the database or open a connection of their own', () => {
    const specific = marked.filter((file) => DATABASE_SPECIFIC.test(fs.readFileSync(path.join(root, file), 'utf8')));
    expect(specific, 'a file that depends on the database runs on both: take its marker off').toEqual([]);
  });

  it('run on PostgreSQL when the run has it (npm test says so with ONE_DATABASE), else on PGlite', () => {
    expect(oneDatabaseProject({ ONE_DATABASE: 'postgres' })).toBe('postgres');
    expect(oneDatabaseProject({ ONE_DATABASE: 'pglite' })).toBe('pglite');
    expect(oneDatabaseProject({})).toBe('pglite');
  });
});

import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATEMENT_CACHE_SIZE, StatementCachingPGlite } from './pglite-statements.ts';

// One database of each kind, the same tables in both: every answer of the caching one must be PGlite's own.
let cached: StatementCachingPGlite;
let plain: PGlite;

const SCHEMA = `
  create table items (id serial primary key, name text not null unique, size int, tags jsonb, at timestamptz);
  insert into items (name, size, tags, at) values ('kite', 3, '["red"]', '2026-11-26T10:00:00Z'), ('oar', null, null, null);
`;

beforeAll(async () => {
  // `new`, as openDatabase does: PGlite.create would make a plain PGlite even when called on the subclass.
  cached = new StatementCachingPGlite();
  plain = new PGlite();
  await Promise.all([cached.waitReady, plain.waitReady]);
  await Promise.all([cached.exec(SCHEMA), plain.exec(SCHEMA)]);
}, 60_000);

afterAll(async () => {
  await Promise.all([cached?.close(), plain?.close()]);
});

const prepared = async (db: PGlite) =>
  (
    await db.query<{ statement: string }>(
      `select statement from pg_prepared_statements where name like 'bagspace_stmt_%' order by statement`,
    )
  ).rows.map((row) => row.statement);

describe('the embedded database with statements prepared once', () => {
  it('answers every query as PGlite does: rows, fields, affected rows, both row modes, nulls and JSON', async () => {
    const queries: Array<[string, unknown[], object?]> = [
      ['select * from items where size > $1 or size is null order by id', [1]],
      ['select id, name, tags, at from items where name = any($1::text[])', [['kite', 'oar']], { rowMode: 'array' }],
      ['select $1::jsonb as doc, $2::int as n, $3::text as missing', [{ a: [1, 'two'] }, 7, null]],
      [
        'insert into items (name, size) values ($1, $2) on conflict (name) do update set size = items.size + 1 returning id, name, size',
        ['sail', 9],
      ],
      ['update items set size = size + 1 where size is not null', []],
      ['delete from items where name = $1', ['sail']],
    ];
    for (const [text, params, options] of queries) {
      // Twice each: the first call prepares the statement, the second runs the prepared one.
      for (let round = 0; round < 2; round++) {
        const mine = await cached.query(text, params, options);
        const theirs = await plain.query(text, params, options);
        expect(mine, `${text} (call ${round + 1})`).toEqual(theirs);
      }
    }
  });

  it('parses each statement once, however often it runs', async () => {
    const text = 'select name from items where id = $1';
    for (let i = 0; i < 5; i++) await cached.query(text, [1]);
    expect((await prepared(cached)).filter((statement) => statement === text)).toHaveLength(1);
  });

  it('a failed statement throws PGlite’s error, with the query and its parameters, and the next one runs', async () => {
    const text = 'insert into items (name) values ($1)';
    const error = await cached.query(text, ['kite']).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '23505', constraint: 'items_name_key', query: text, params: ['kite'] });
    const theirs = await plain.query(text, ['kite']).catch((e: unknown) => e);
    expect((error as Error).message).toBe((theirs as Error).message);
    expect(cached.isInTransaction()).toBe(false);
    expect((await cached.query('select count(*)::int as n from items where name = $1', ['kite'])).rows).toEqual([
      { n: 1 },
    ]);
  });

  it('keeps a transaction’s writes together: committed at once, or rolled back by an error', async () => {
    await cached.transaction(async (tx) => {
      await tx.query('insert into items (name) values ($1)', ['rope']);
      await tx.query('update items set size = $1 where name = $2', [4, 'rope']);
    });
    const failed = await cached
      .transaction(async (tx) => {
        await tx.query('insert into items (name) values ($1)', ['mast']);
        await tx.query('insert into items (name) values ($1)', ['kite']);
      })
      .catch((e: unknown) => e);
    expect(failed).toMatchObject({ code: '23505' });
    const rows = (
      await cached.query('select name, size from items where name in ($1, $2) order by name', ['mast', 'rope'])
    ).rows;
    expect(rows).toEqual([{ name: 'rope', size: 4 }]);

    let kept: { query: PGlite['query'] } | undefined;
    await cached.transaction(async (tx) => {
      kept = tx;
    });
    await expect(kept!.query('select 1')).rejects.toThrow('Transaction is closed');
  });

  it('prepares a statement again when another client dropped it or a table changed under it', async () => {
    const text = 'select * from items where id = $1';
    expect(Object.keys((await cached.query(text, [1])).rows[0] as object)).not.toContain('colour');
    // What psql on the local socket could do to the session the server shares with it.
    await cached.exec('deallocate all');
    expect((await cached.query(text, [1])).rows).toHaveLength(1);
    // A migration that adds a column: PostgreSQL refuses the old statement's plan; the call is retried.
    await cached.exec(`alter table items add column colour text default 'blue'`);
    expect((await cached.query(text, [1])).rows[0]).toMatchObject({ id: 1, colour: 'blue' });
    await cached.exec('alter table items drop column colour');
  });

  it(`keeps at most ${STATEMENT_CACHE_SIZE} statements prepared, closing the least recently used`, async () => {
    await cached.exec('deallocate all');
    const first = 'select $1::int as n, 0 as k';
    await cached.query(first, [1]);
    for (let k = 1; k <= STATEMENT_CACHE_SIZE + 20; k++) await cached.query(`select $1::int as n, ${k} as k`, [k]);
    const statements = await prepared(cached);
    expect(statements.length).toBeLessThanOrEqual(STATEMENT_CACHE_SIZE + 1);
    expect(statements).not.toContain(first);
    expect(cached.preparedStatements).toBe(STATEMENT_CACHE_SIZE);
    // An evicted statement runs again (prepared anew).
    expect((await cached.query(first, [5])).rows).toEqual([{ n: 5, k: 0 }]);
  });
});

import { PGlite, type QueryOptions, type Results, type Transaction, parse, protocol } from '@electric-sql/pglite';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

/**
 * The embedded database with its statements prepared once (decision 103). PGlite's own `query`
 * parses and describes a statement on every call, in six trips through the database's message
 * loop (parse, describe, bind, describe, execute, sync); measured on a signed-in request's session
 * lookup, 1.3–1.5 ms of CPU a call. Here each distinct SQL text is parsed and described once as a
 * named statement, and every call after that is one trip (bind, execute, sync): 0.4–0.5 ms.
 * What a caller sees is PGlite's: the same rows, fields and affected rows, the same errors carrying
 * the query and parameters, the same rules for transactions and for writing to disk.
 *
 * The statements live in the database session, which the local socket (decision 093) shares with
 * the command line and psql: a client there may drop them (`DEALLOCATE ALL`), and a migration may
 * change a table under one (PostgreSQL then refuses it: "cached plan must not change result
 * type"). Either way the statement is prepared again and, outside a transaction, the call is
 * retried once; inside one the error ends the transaction, as any database error does.
 */
export const STATEMENT_CACHE_SIZE = 256;

/** Our statements' names: no other program on the socket would choose them. */
const NAME_PREFIX = 'bagspace_stmt_';
/** The statement is gone, or its result's shape changed under it: prepare it again. */
const STALE_STATEMENT = new Set(['26000', '0A000']);

const { serialize } = protocol;
const { parseResults, parseDescribeStatementResults } = parse;

interface Statement {
  name: string;
  paramTypes: number[];
  /** The statement's row description, as PGlite's result parser needs it before the rows. */
  described: BackendMessage[];
}

/** PGlite's own shape for an error of a query: the error itself, carrying what was asked. */
function withQuery(error: unknown, query: string, params: unknown[], options: QueryOptions | undefined): unknown {
  if (error instanceof Error && 'code' in error) Object.assign(error, { query, params, queryOptions: options });
  return error;
}

const errorCode = (error: unknown) =>
  error instanceof Error && 'code' in error ? String((error as { code: unknown }).code) : undefined;

export class StatementCachingPGlite extends PGlite {
  /** SQL text → its prepared statement, the least recently used first. */
  readonly #statements = new Map<string, Statement>();
  /** Statements to close once no transaction is open (a failed transaction refuses every message). */
  readonly #toClose: string[] = [];
  #nextName = 0;

  /** How many statements are prepared now (tests, and the metrics a future operator may want). */
  get preparedStatements(): number {
    return this.#statements.size;
  }

  override async query<T>(query: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    // A blob (COPY) or caller-given parameter types: PGlite's own path, which handles both.
    if (options?.blob || options?.paramTypes) return super.query<T>(query, params, options);
    await this._checkReady();
    // As PGlite's own query: a statement outside a transaction waits for a running transaction.
    return this._runExclusiveTransaction(() => this.#exclusive<T>(query, params, options));
  }

  override async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    return super.transaction((tx) => {
      const fast = Object.create(tx, {
        query: {
          value: async <R>(query: string, params: unknown[] = [], options?: QueryOptions) => {
            if (tx.closed) throw new Error('Transaction is closed');
            if (options?.blob || options?.paramTypes) return tx.query<R>(query, params, options);
            return this.#exclusive<R>(query, params, options);
          },
        },
      }) as Transaction;
      return callback(fast);
    });
  }

  #exclusive<T>(query: string, params: unknown[], options: QueryOptions | undefined): Promise<Results<T>> {
    return this._runExclusiveQuery(async () => {
      let results;
      try {
        results = await this.#run(query, params, options);
      } catch (error) {
        if (!STALE_STATEMENT.has(errorCode(error) ?? '') || this.isInTransaction()) {
          throw withQuery(error, query, params, options);
        }
        try {
          results = await this.#run(query, params, options);
        } catch (again) {
          throw withQuery(again, query, params, options);
        }
      }
      // PGlite's rule: outside a transaction, each statement's writes go to the file system now.
      if (!this.isInTransaction()) await this.syncToFs();
      return parseResults(results, this.parsers, options)[0] as Results<T>;
    });
  }

  async #run(query: string, params: unknown[], options: QueryOptions | undefined) {
    const statement = await this.#prepared(query, options);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.paramTypes[i]!;
      const serializer = options?.serializers?.[type] ?? this.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    try {
      const messages = await this.execProtocolStream(
        Buffer.concat([serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]),
        { syncToFs: false, onNotice: options?.onNotice },
      );
      return [...statement.described, ...messages];
    } catch (error) {
      if (STALE_STATEMENT.has(errorCode(error) ?? '')) this.#forget(query, statement);
      throw error;
    }
  }

  async #prepared(query: string, options: QueryOptions | undefined): Promise<Statement> {
    const known = this.#statements.get(query);
    if (known) {
      this.#statements.delete(query);
      this.#statements.set(query, known);
      return known;
    }
    if (!this.isInTransaction()) await this.#closeDropped();
    const name = `${NAME_PREFIX}${++this.#nextName}`;
    const described = await this.execProtocolStream(
      Buffer.concat([
        serialize.parse({ name, text: query }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { syncToFs: false, onNotice: options?.onNotice },
    );
    const statement = {
      name,
      paramTypes: parseDescribeStatementResults(described),
      // Results come as text (the bind asks for no other format), as a statement's description says.
      described: described.filter((message) => message.name === 'rowDescription'),
    };
    this.#statements.set(query, statement);
    if (this.#statements.size > STATEMENT_CACHE_SIZE) {
      const [oldest, dropped] = this.#statements.entries().next().value!;
      this.#forget(oldest, dropped);
    }
    return statement;
  }

  #forget(query: string, statement: Statement) {
    if (this.#statements.get(query) === statement) this.#statements.delete(query);
    this.#toClose.push(statement.name);
  }

  /** Closes the statements dropped from the cache (a statement already gone is no error). */
  async #closeDropped() {
    if (this.#toClose.length === 0) return;
    const names = this.#toClose.splice(0);
    await this.execProtocolStream(
      Buffer.concat([...names.map((name) => serialize.close({ type: 'S', name })), serialize.sync()]),
      { syncToFs: false, throwOnError: false },
    );
  }
}

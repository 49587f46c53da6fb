import type { ImapFlow, ImapFlowError } from 'imapflow';

/**
 * Reads the support mailbox over IMAP: every message is stored (durably, by `store`) before it is
 * moved out of the mailbox, so a message is never lost between the mailbox and our storage. A
 * message whose store failed stays where it is and is tried again; one that was stored but could
 * not be moved is stored again later (store is idempotent on our side).
 *
 * New mail is noticed through IDLE (imapflow enters it by itself once the connection is quiet): the
 * server tells us at once, there is no polling loop. The only timers are the retry of messages
 * whose store failed and the reconnect after a dropped connection, both with backoff.
 *
 * Logs name the host, mailbox, UID and size, never the password or a message's content.
 */
export interface ImapReaderOptions {
  /**
   * imaps://user:password@host:993/INBOX (imap:// for a plain connection, tests). The path names
   * the mailbox (default INBOX); user and password are URL-encoded.
   */
  url: string;
  /** Mailbox that processed messages are moved to, created when missing, e.g. 'Processed'. */
  moveTo: string;
  /** Durably stores the raw message; throws if it could not. */
  store: (raw: Buffer) => Promise<void>;
  log: {
    info(details: object, message: string): void;
    warn(details: object, message: string): void;
    error(details: object, message: string): void;
  };
  /** First wait before reconnecting after a dropped or failed connection; doubles up to 60 s. Default 1 s. */
  reconnectMs?: number;
  /** First wait before trying again messages whose store failed; doubles up to 60 s. Default 5 s. */
  retryMs?: number;
}

export interface ImapReaderStats {
  /** Messages `store` accepted. */
  stored: number;
  /** Messages moved to `moveTo` after they were stored. */
  moved: number;
  /** Attempts that left a message in the mailbox: its store threw, or it could not be moved. */
  failed: number;
  connected: boolean;
}

export interface ImapReader {
  /** Connects and handles what is in the mailbox; when the connection fails it logs and keeps retrying. */
  start(): Promise<void>;
  /** Lets a message being handled finish (store and move), then logs out; no further calls to store. */
  stop(): Promise<void>;
  stats(): ImapReaderStats;
  /** Resolves once every message now in the mailbox has been handled (tests). */
  drain(): Promise<void>;
}

interface ImapTarget {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  pass: string;
  mailbox: string;
}

const MAX_BACKOFF_MS = 60_000;
/**
 * How long the connection stays quiet before imapflow enters IDLE (its default is 15 s). Until
 * then the server reports nothing new, so this bounds how late the first mail after a round is
 * seen; a round holds the mailbox lock, which keeps IDLE out from between its own commands.
 */
const AUTO_IDLE_MS = 500;
const LOGOUT_TIMEOUT_MS = 5_000;

function parseImapUrl(url: string): ImapTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // The URL itself is not in the message: it holds the password.
    throw new Error('The IMAP URL is not a valid URL');
  }
  const secure = parsed.protocol === 'imaps:';
  if (!secure && parsed.protocol !== 'imap:') throw new Error(`The IMAP URL must be imaps:// or imap://`);
  if (!parsed.hostname) throw new Error('The IMAP URL has no host');
  const mailbox = decodeURIComponent(parsed.pathname.replace(/^\/+/, '').replace(/\/+$/, ''));
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port ? Number(parsed.port) : secure ? 993 : 143,
    secure,
    user: decodeURIComponent(parsed.username),
    pass: decodeURIComponent(parsed.password),
    mailbox: mailbox || 'INBOX',
  };
}

export function createImapReader(options: ImapReaderOptions): ImapReader {
  const target = parseImapUrl(options.url);
  const { log, store, moveTo } = options;
  const reconnectMs = Math.max(1, options.reconnectMs ?? 1_000);
  const retryMs = Math.max(1, options.retryMs ?? 5_000);
  const where = { host: target.host, mailbox: target.mailbox };
  const secrets = [...new Set([target.pass, encodeURIComponent(target.pass), new URL(options.url).password])].filter(
    (s) => s.length > 0,
  );
  const counts = { stored: 0, moved: 0, failed: 0 };

  let running = false;
  /** The connected client, once its setup is done; null while (re)connecting or stopped. */
  let client: ImapFlow | null = null;
  let connecting: Promise<void> | null = null;
  /** The client being connected, closed by stop() so that it does not wait for a connection timeout. */
  let opening: ImapFlow | null = null;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let reconnectAttempts = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryAttempts = 0;
  let rounds: Promise<boolean> | null = null;
  let roundAgain = false;
  let connectedWaiters: Array<() => void> = [];
  /** imapflow, loaded by start(): a server that reads no mailbox never loads it (0.2 s of a start; decision 101). */
  let imapflow: typeof import('imapflow') | undefined;

  /** An error as loggable fields: no stack, no command as sent (a LOGIN holds the password), secrets masked. */
  function describe(err: unknown): { error: string; code?: string; response?: string } {
    const mask = (text: string) => secrets.reduce((t, secret) => t.split(secret).join('***'), text);
    const e = (err ?? {}) as Partial<ImapFlowError>;
    const described: { error: string; code?: string; response?: string } = {
      error: mask(err instanceof Error ? err.message : String(err)),
    };
    if (typeof e.code === 'string') described.code = e.code;
    const response = e.serverResponseCode ?? e.responseText;
    if (typeof response === 'string') described.response = mask(response);
    return described;
  }

  function backoff(first: number, attempts: number): number {
    return Math.min(MAX_BACKOFF_MS, first * 2 ** Math.min(attempts, 20));
  }

  function notifyConnected() {
    const waiters = connectedWaiters;
    connectedWaiters = [];
    for (const resolve of waiters) resolve();
  }

  async function ensureMailbox(c: ImapFlow, path: string) {
    try {
      const created = await c.mailboxCreate(path);
      if (created.created) log.info({ mailbox: path }, 'IMAP mailbox created');
    } catch (err) {
      // Some servers refuse to create an existing mailbox without saying why: it is there if STATUS works.
      if ((await c.status(path, { messages: true }).catch(() => false)) === false) throw err;
    }
  }

  async function connect(): Promise<void> {
    const c = new imapflow!.ImapFlow({
      host: target.host,
      port: target.port,
      secure: target.secure,
      auth: { user: target.user, pass: target.pass },
      logger: false,
      autoIdleDelay: AUTO_IDLE_MS,
    });
    // Errors also reject the command that was waiting, or end in 'close'; without a listener they would crash.
    c.on('error', (err: Error) => log.warn({ ...where, ...describe(err) }, 'IMAP connection error'));
    c.on('close', () => {
      if (client !== c) return;
      client = null;
      if (!running) return;
      log.warn(where, 'IMAP connection closed');
      scheduleReconnect();
    });
    c.on('exists', (event) => {
      if (client === c && event.count > event.prevCount) void runRounds();
    });
    opening = c;
    try {
      await c.connect();
      await ensureMailbox(c, moveTo);
    } catch (err) {
      c.close();
      if (!running) return;
      throw err;
    } finally {
      opening = null;
    }
    if (!running) {
      c.close();
      return;
    }
    client = c;
    log.info(where, 'IMAP connected');
    if (!c.capabilities.has('IDLE')) log.warn(where, 'The IMAP server has no IDLE: new mail is seen by polling');
    notifyConnected();
    void runRounds();
  }

  function tryConnect(): Promise<void> {
    connecting ??= (async () => {
      try {
        await connect();
      } catch (err) {
        log.error({ ...where, ...describe(err) }, 'IMAP connection failed');
        scheduleReconnect();
      } finally {
        connecting = null;
      }
    })();
    return connecting;
  }

  function scheduleReconnect() {
    if (!running || reconnectTimer) return;
    const delayMs = backoff(reconnectMs, reconnectAttempts++);
    log.info({ ...where, delayMs }, 'IMAP reconnecting');
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      if (running) void tryConnect();
    }, delayMs);
  }

  function scheduleRetry() {
    if (!running || retryTimer) return;
    const delayMs = backoff(retryMs, retryAttempts++);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      if (running) void runRounds();
    }, delayMs);
  }

  /**
   * Runs rounds one after another while someone asked for one (a new message, a retry, drain):
   * never two at once. Resolves true when the last round went through the whole mailbox.
   */
  function runRounds(): Promise<boolean> {
    roundAgain = true;
    rounds ??= (async () => {
      // Always settle after an await, so `rounds` is cleared after it was set.
      await Promise.resolve();
      let ok = true;
      try {
        while (roundAgain && running && ok) {
          roundAgain = false;
          ok = await round();
        }
        return ok;
      } finally {
        rounds = null;
      }
    })();
    return rounds;
  }

  /** Handles every message in the mailbox once, by UID; false when the connection failed. */
  async function round(): Promise<boolean> {
    const c = client;
    if (!c || !c.usable) return false;
    let failures = 0;
    try {
      const lock = await c.getMailboxLock(target.mailbox);
      try {
        // The UIDs first, then one message at a time: never every source in memory at once.
        const uids = await c.search({ all: true }, { uid: true });
        if (!uids) throw new Error('UID SEARCH failed');
        for (const uid of uids) {
          if (!running || client !== c) break;
          if (!(await handle(c, uid))) failures++;
        }
      } finally {
        lock.release();
      }
    } catch (err) {
      if (client === c && running) {
        // Whatever went wrong, a new connection starts from a clean state (and backs off if it persists).
        log.warn({ ...where, ...describe(err) }, 'IMAP round failed; reconnecting');
        c.close();
      }
      return false;
    }
    reconnectAttempts = 0;
    if (failures > 0) {
      scheduleRetry();
    } else {
      retryAttempts = 0;
    }
    return true;
  }

  /** Stores one message, then moves it; true when it left the mailbox (or was already gone). */
  async function handle(c: ImapFlow, uid: number): Promise<boolean> {
    const message = await c.fetchOne(String(uid), { uid: true, size: true, source: true }, { uid: true });
    if (!message || !message.source) return true;
    const details = { mailbox: target.mailbox, uid, size: message.size ?? message.source.length };
    try {
      await store(message.source);
    } catch (err) {
      counts.failed++;
      log.warn({ ...details, ...describe(err) }, 'Inbound message not stored; left in the mailbox to try again');
      return false;
    }
    counts.stored++;
    const moved = await c.messageMove(String(uid), moveTo, { uid: true });
    if (!moved) {
      counts.failed++;
      log.warn({ ...details, moveTo }, 'Inbound message stored but not moved; it will be stored again');
      return false;
    }
    counts.moved++;
    log.info({ ...details, moveTo }, 'Inbound message stored and moved');
    return true;
  }

  return {
    async start() {
      if (running) return;
      running = true;
      imapflow ??= await import('imapflow');
      if (!running) return;
      await tryConnect();
    },

    async stop() {
      running = false;
      clearTimeout(reconnectTimer);
      reconnectTimer = undefined;
      clearTimeout(retryTimer);
      retryTimer = undefined;
      notifyConnected();
      opening?.close();
      await connecting;
      // A message being handled finishes (its move included); the round stops before the next one.
      await rounds;
      const c = client;
      client = null;
      if (!c) return;
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          c.logout(),
          new Promise((resolve) => {
            timer = setTimeout(resolve, LOGOUT_TIMEOUT_MS);
          }),
        ]);
      } catch {
        // Already gone: nothing to log out of.
      } finally {
        clearTimeout(timer);
        c.close();
      }
      log.info(where, 'IMAP reader stopped');
    },

    stats() {
      return { ...counts, connected: client !== null && client.usable };
    },

    async drain() {
      while (running) {
        if (client && (await runRounds())) return;
        // Not connected, or the connection failed during the round: wait for the next one.
        if (running) await new Promise<void>((resolve) => connectedWaiters.push(resolve));
      }
    },
  };
}

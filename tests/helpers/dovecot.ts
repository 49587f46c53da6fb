import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { freePort } from './ports.ts';
import { heldWithin, waitFor } from './wait.ts';

/**
 * A private Dovecot IMAP server for one test file (Debian's dovecot-imapd; .ci/run installs it):
 * config, sockets, state, log and maildirs all in a fresh temp dir, listening on 127.0.0.1 only,
 * plaintext login allowed (no TLS), one user with a random password, run in the foreground as a
 * child process.
 *
 * As root, the login and internal services and the mail run as `nobody` (Dovecot refuses root for
 * imap-login and for mail access); as another user, everything runs as that user. No service is
 * chrooted (a non-root master cannot chroot), so the temp dir is world-traversable.
 */
export const DOVECOT_PATH = '/usr/sbin/dovecot';
const LDA_PATH = '/usr/lib/dovecot/dovecot-lda';

const IMAP_PATH = '/usr/lib/dovecot/imap';

/** Dovecot is installed, with its IMAP server (dovecot-imapd) and delivery agent (dovecot-core). */
export const dovecotAvailable: boolean = [DOVECOT_PATH, IMAP_PATH, LDA_PATH].every((file) => fs.existsSync(file));

export interface Dovecot {
  port: number;
  user: string;
  password: string;
  /** imap://user:password@127.0.0.1:port/INBOX, user and password URL-encoded. */
  url: string;
  /** Delivers a raw message into the user's INBOX the way an MTA would (dovecot-lda). */
  deliver(raw: Buffer | string): Promise<void>;
  /** Messages in the mailbox (IMAP STATUS); 0 when it does not exist. */
  mailboxCount(mailbox: string): Promise<number>;
  /**
   * What this server's IMAP session processes are doing, from their titles
   * (verbose_proctitle), e.g. 'support@example.test 127.0.0.1 IDLE'. Linux only.
   */
  imapSessions(): string[];
  /**
   * Stops the server (its clients' connections drop), runs `whileDown`, then starts it again on the
   * same directory and port.
   */
  restart(whileDown?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
const LDA_TIMEOUT_MS = 10_000;

interface Account {
  name: string;
  uid: number;
  gid: number;
  group: string;
}

/** The name of a group: Dovecot takes names, not numbers, for its services' groups. */
function groupName(gid: number): string {
  const line = fs
    .readFileSync('/etc/group', 'utf8')
    .split('\n')
    .find((l) => l.split(':')[2] === String(gid));
  const name = line?.split(':')[0];
  if (!name) throw new Error(`Dovecot needs a name for group ${gid} in /etc/group`);
  return name;
}

/** The user the services and mail run as: `nobody` for root, else whoever runs the tests. */
function serviceAccount(): Account {
  const me = os.userInfo();
  if (me.uid !== 0) return { name: me.username, uid: me.uid, gid: me.gid, group: groupName(me.gid) };
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('nobody:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error('Dovecot as root needs a `nobody` user in /etc/passwd');
  return { name: 'nobody', uid: Number(uid), gid: Number(gid), group: groupName(Number(gid)) };
}

function dovecotConfig(dir: string, instance: string, port: number, account: Account): string {
  return `# A private Dovecot for one test file (tests/helpers/dovecot.ts).
base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = ${instance}
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
verbose_proctitle = yes
shutdown_clients = yes

default_internal_user = ${account.name}
default_internal_group = ${account.group}
default_login_user = ${account.name}
first_valid_uid = 1
first_valid_gid = 1
mail_uid = ${account.uid}
mail_gid = ${account.gid}
mail_location = maildir:${dir}/mail/%u/Maildir

passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users
}
userdb {
  driver = static
  args = home=${dir}/mail/%u
}

service anvil {
  chroot =
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
`;
}

function readTail(file: string, bytes = 4000): string {
  try {
    const text = fs.readFileSync(file, 'utf8');
    return text.slice(-bytes);
  } catch {
    return '';
  }
}

/** Resolves once the server greets on the port; rejects if the process exits first or after the deadline. */
async function waitForGreeting(port: number, child: ChildProcess, deadline: number): Promise<void> {
  await waitFor(
    `Dovecot's greeting on 127.0.0.1:${port}`,
    async () => {
      if (child.exitCode !== null || child.signalCode !== null) throw new Fatal('Dovecot exited while starting');
      return greets(port);
    },
    { timeoutMs: Math.max(0, deadline - Date.now()), intervalMs: 50, stopOn: (error) => error instanceof Fatal },
  );
}

class Fatal extends Error {}

/** One look: whether the server on the port answers with an IMAP greeting. */
function greets(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let data = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('close', () => done(false));
    socket.on('data', (chunk: Buffer) => {
      data += chunk.toString('latin1');
      if (data.includes('\n')) done(data.startsWith('* OK'));
    });
  });
}

/** Signals the process group `child` leads (a failure means none of it is left). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** Fields of /proc/<pid>/stat after the command name: state, ppid, pgrp… */
function procStat(pid: string): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * Whether a live process is left in the group. Zombies do not count: they hold no port, and the
 * IMAP sessions the master leaves to init may stay zombies for a while where init is not a real one.
 */
function groupAlive(child: ChildProcess): boolean {
  const pgid = String(child.pid);
  return fs.readdirSync('/proc').some((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    const [state, , group] = procStat(pid) ?? [];
    return group === pgid && state !== 'Z';
  });
}

/** Stops the server's whole process group: SIGTERM, then SIGKILL after the timeout. */
async function stopGroup(child: ChildProcess): Promise<void> {
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    if (!groupAlive(child)) break;
    signalGroup(child, signal);
    // Past the deadline the next signal (SIGKILL) is sent: not an error.
    await heldWithin(`Dovecot's processes to end on ${signal}`, () => !groupAlive(child), {
      timeoutMs: STOP_TIMEOUT_MS,
      intervalMs: 20,
    });
  }
  await waitForExit(child, STOP_TIMEOUT_MS);
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export async function startDovecot(): Promise<Dovecot> {
  if (!dovecotAvailable) throw new Error(`Dovecot's IMAP server is not installed: apt-get install dovecot-imapd`);
  const account = serviceAccount();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dovecot-test-'));
  // The services and mail run as `nobody` under root: they must get through the directory.
  fs.chmodSync(dir, 0o755);
  for (const sub of ['run', 'state', 'mail']) fs.mkdirSync(path.join(dir, sub), { mode: 0o755 });
  fs.chownSync(path.join(dir, 'mail'), account.uid, account.gid);
  const instance = `test-${randomBytes(4).toString('hex')}`;
  const user = 'support@example.test';
  // Characters that need URL encoding, so that a reader has to decode the URL's password.
  const password = `${randomBytes(12).toString('base64url')}+/@%`;
  fs.writeFileSync(path.join(dir, 'users'), `${user}:{PLAIN}${password}\n`, { mode: 0o644 });
  const configFile = path.join(dir, 'dovecot.conf');
  const logFile = path.join(dir, 'dovecot.log');

  let child: ChildProcess | null = null;
  let stderr = '';
  const killOnExit = () => {
    if (child) signalGroup(child, 'SIGTERM');
  };
  process.once('exit', killOnExit);

  /** Starts the server on `port`; 'in-use' when another process holds the port. */
  async function launch(port: number): Promise<'ok' | 'in-use'> {
    fs.writeFileSync(configFile, dovecotConfig(dir, instance, port, account));
    stderr = '';
    // Its own process group: stopping signals the whole group, the master and every process it
    // started. (Signalled alone, the master exits and leaves its IMAP sessions running, without
    // it, for another ten seconds or so.)
    const started = spawn(DOVECOT_PATH, ['-F', '-c', configFile], {
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    started.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child = started;
    try {
      await waitForGreeting(port, started, Date.now() + READY_TIMEOUT_MS);
      return 'ok';
    } catch (err) {
      await stopGroup(started);
      child = null;
      const output = `${stderr}\n${readTail(logFile)}`;
      if (/Address already in use/.test(output)) return 'in-use';
      throw new Error(`${(err as Error).message}:\n${output.trim()}`, { cause: err });
    }
  }

  async function halt() {
    const running = child;
    child = null;
    if (!running) return;
    await stopGroup(running);
  }

  let port = 0;
  try {
    // Another process may take the free port before Dovecot binds it: then another port.
    for (let attempt = 0; ; attempt++) {
      port = await freePort();
      if ((await launch(port)) === 'ok') break;
      if (attempt >= 4) throw new Error('Dovecot found no free port');
    }
  } catch (err) {
    process.removeListener('exit', killOnExit);
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  async function withClient<T>(work: (client: ImapFlow) => Promise<T>): Promise<T> {
    const client = new ImapFlow({
      host: '127.0.0.1',
      port,
      secure: false,
      auth: { user, pass: password },
      logger: false,
    });
    client.on('error', () => {});
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.logout().catch(() => client.close());
    }
  }

  return {
    port,
    user,
    password,
    url: `imap://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/INBOX`,

    deliver(raw) {
      return new Promise<void>((resolve, reject) => {
        const lda = spawn(LDA_PATH, ['-c', configFile, '-d', user], { stdio: ['pipe', 'ignore', 'pipe'] });
        let output = '';
        lda.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        const timer = setTimeout(() => lda.kill('SIGKILL'), LDA_TIMEOUT_MS);
        lda.on('error', reject);
        lda.on('close', (code, signal) => {
          clearTimeout(timer);
          if (code === 0) resolve();
          else
            reject(new Error(`dovecot-lda failed (${signal ?? code}): ${output.trim()}\n${readTail(logFile, 1000)}`));
        });
        lda.stdin.end(typeof raw === 'string' ? Buffer.from(raw) : raw);
      });
    },

    mailboxCount(mailbox) {
      return withClient(async (client) => {
        const status = await client.status(mailbox, { messages: true }).catch(() => false as const);
        return status ? (status.messages ?? 0) : 0;
      });
    },

    imapSessions() {
      const master = child?.pid;
      if (!master) return [];
      const titles: string[] = [];
      for (const entry of fs.readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        try {
          if (procStat(entry)?.[1] !== String(master)) continue;
          const title = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0+/g, ' ').trim();
          const match = /\/imap \[(.*)\]$/.exec(title);
          if (match?.[1] !== undefined) titles.push(match[1]);
        } catch {
          // The process ended while we looked.
        }
      }
      return titles;
    },

    async restart(whileDown) {
      await halt();
      await whileDown?.();
      // The old processes may hold the port for a moment after the master exited.
      await waitFor(`Dovecot bound to 127.0.0.1:${port} again`, async () => (await launch(port)) !== 'in-use', {
        timeoutMs: READY_TIMEOUT_MS,
        intervalMs: 100,
      });
    },

    async stop() {
      await halt();
      process.removeListener('exit', killOnExit);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { SERVER_BUNDLE } from '../../scripts/ensure-build.js';
import { SERVER_NODE_FLAGS } from '../../src/server/node-flags.ts';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `npm run cli -- ARGS` as an operator runs it: a child process with only the given environment
 * (PATH and HOME kept) and `stdin` typed in; answers its exit code and everything it printed.
 */
export function runCli(args: string[], env: Record<string, string>, stdin = ''): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'cli.ts'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end(stdin);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The same commands in this process: src/server/cli.ts's runCli with the given environment only
 * (as the child above gets) and `stdin` typed in. A child process costs seconds of start-up on a
 * busy machine; tests of what a command does use this, and the tests of the command line as a
 * process (its exit code, its output, its start-up) keep runCli.
 */
export async function runCliHere(args: string[], env: Record<string, string>, stdin = ''): Promise<CliResult> {
  const { runCli: run } = await import('../../src/server/cli.ts');
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(
    args,
    { ...env },
    {
      out: (line) => out.push(`${line}\n`),
      err: (line) => err.push(`${line}\n`),
      readStdin: async () => stdin,
    },
  );
  return { code, stdout: out.join(''), stderr: err.join('') };
}

/**
 * The accounts CLI (`npm run cli -- create-user`), on the database a server will use, in production
 * mode like the server; the password on stdin, as an operator types it. `options` adds flags
 * (`--admin`, `--totp-secret S`).
 */
export async function createUserWithCli(
  env: Record<string, string>,
  email: string,
  password: string,
  options: string[] = [],
): Promise<void> {
  const args = ['create-user', '--email', email, '--password-stdin', ...options];
  const result = await runCli(args, { NODE_ENV: 'production', ...env }, `${password}\n`);
  if (result.code !== 0) throw new Error(`create-user failed (${result.code}): ${result.stdout}${result.stderr}`);
}

export interface ServerProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the base URL once the server prints it. */
  ready: Promise<string>;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts the built server like `npm start` does: its bundle (scripts/build-server.ts, which the
 * integration suites' global set-up builds when it is missing or stale), in production mode, with
 * Node's flags of node-flags.ts and its own environment. A start from the bundle costs about 1 s of
 * CPU, from the sources about 2 s, and the kill -9 loops start dozens. `script` starts another entry
 * (the sources' `src/server/main.ts`); `nodeFlags` replaces the flags (a test of a start without them).
 */
export function startServer(
  env: Record<string, string>,
  options: { script?: string; nodeFlags?: readonly string[] } = {},
): ServerProcess {
  const flags = options.nodeFlags ?? SERVER_NODE_FLAGS;
  const child = spawn(process.execPath, [...flags, options.script ? path.join(ROOT, options.script) : SERVER_BUNDLE], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /is running at (http:\/\/localhost:\d+)/.exec(out);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => reject(new Error(`server exited (${code}) before it was ready:\n${out}`)));
  });
  ready.catch(() => {});
  return {
    child,
    output: () => out,
    ready,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

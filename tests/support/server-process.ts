import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface ServerProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the base URL once the server prints it. */
  ready: Promise<string>;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts the built server like `npm start` does (production mode), with its own environment. */
export function startServer(env: Record<string, string>, options: { script?: string } = {}): ServerProcess {
  const child = spawn(process.execPath, [path.join(ROOT, options.script ?? 'src/server/main.ts')], {
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

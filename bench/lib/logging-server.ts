/**
 * A server of the throughput section's own, started as `npm start` would (scripts/start.js, the
 * flags of node-flags.ts) at the default log level (LOG_LEVEL unset: info), its standard output a
 * pipe that this process drains as a log collector would: it reads every byte and counts the
 * lines, so a section can say how many lines each request wrote. The shared bench server runs at
 * `warn` and keeps its whole output in memory (tests/helpers/server-process.ts), which millions of
 * request lines would not fit.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../../src/server/node-flags.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface LoggingServer {
  url: string;
  pid: number;
  /** Log lines and bytes the server has written to its standard output since it was ready. */
  logged(): { lines: number; bytes: number };
  stop(): Promise<void>;
}

/** Starts it on `env` (the shared server's, whose LOG_LEVEL is dropped) with a data directory of its own. */
export async function startLoggingServer(env: Record<string, string>): Promise<LoggingServer> {
  const { LOG_LEVEL: _dropped, ...rest } = env;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-bench-info-'));
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(ROOT, 'scripts', 'start.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      ...rest,
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let head = '';
  let ready = false;
  let lines = 0;
  let bytes = 0;
  let errors = '';
  child.stderr!.on('data', (d: Buffer) => {
    if (errors.length < 64_000) errors += d;
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      if (ready) {
        bytes += d.length;
        for (let at = d.indexOf(10); at !== -1; at = d.indexOf(10, at + 1)) lines++;
        return;
      }
      head += d;
      const match = /is running at (http:\/\/localhost:\d+)/.exec(head);
      if (match) {
        ready = true;
        resolve(match[1]!.replace('localhost', '127.0.0.1'));
      }
    });
    void exited.then(() => reject(new Error(`the info-level server exited before it was ready:\n${head}${errors}`)));
  });
  return {
    url,
    pid: child.pid!,
    logged: () => ({ lines, bytes }),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A second process holding one core for as long as it runs: `stress-ng --cpu 1` where it is
 * installed, else a Node loop. Started in a process group of its own, which `stop` ends.
 */
export async function holdOneCore(): Promise<{ what: string; stop(): Promise<void> }> {
  const stressNg = '/usr/bin/stress-ng';
  const [command, args, what] = fs.existsSync(stressNg)
    ? [stressNg, ['--cpu', '1', '--quiet'], 'stress-ng --cpu 1']
    : [process.execPath, ['-e', 'for(;;){}'], "node -e 'for(;;){}'"];
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const end = () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  // Never left behind when the bench stops some other way.
  process.once('exit', end);
  // Let it reach full speed before the first round.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return {
    what,
    async stop() {
      end();
      process.off('exit', end);
      await exited;
    },
  };
}

/**
 * Runs the live-delivery clients (live-clients.ts) in a child process: opens every stream, calls
 * `whenOpen` (the bench measures the servers' memory with the streams idle), then sends the answers
 * and returns what each subscriber received. Used by the live and the scale-out sections.
 */
import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import type { LiveConfig, LiveResult } from './live-clients.ts';

export interface LiveRun {
  streams: number;
  failedStreams: number;
  result: LiveResult;
}

export async function runLiveClients(
  config: LiveConfig,
  whenOpen: (opened: { streams: number; failedStreams: number }) => Promise<void>,
): Promise<LiveRun> {
  const child: ChildProcess = fork(path.join(import.meta.dirname, 'live-clients.ts'), {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<never>((_resolve, reject) =>
    child.once('exit', (code) => reject(new Error(`live clients exited (${code})`))),
  );
  exited.catch(() => {});
  const next = <T>(type: string) =>
    Promise.race([
      new Promise<T>((resolve) => {
        const onMessage = (m: { type: string }) => {
          if (m.type === type) {
            child.off('message', onMessage);
            resolve(m as T);
          }
        };
        child.on('message', onMessage);
      }),
      exited,
    ]);
  try {
    const opened = next<{ streams: number; failedStreams: number }>('open');
    child.send({ type: 'config', config });
    const { streams, failedStreams } = await opened;
    await whenOpen({ streams, failedStreams });
    const done = next<{ result: LiveResult }>('done');
    child.send({ type: 'go' });
    const { result } = await done;
    return { streams, failedStreams, result };
  } finally {
    if (child.exitCode === null) child.kill();
  }
}

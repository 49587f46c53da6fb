import { DEFAULT_WAIT_MS } from './wait.ts';

/** A small Server-Sent Events client over fetch, for tests: collects events and can wait for them. */
export interface SseEvent {
  event: string;
  id?: string;
  data: unknown;
}

export interface SseConnection {
  status: number;
  events: SseEvent[];
  /** Resolves when the server ends the stream (or the connection drops). */
  ended: Promise<void>;
  waitFor(predicate: (events: SseEvent[]) => boolean, timeoutMs?: number): Promise<SseEvent[]>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseConnection> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const events: SseEvent[] = [];
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((w) => w());
  let ended: Promise<void> = Promise.resolve();
  if (res.ok && res.body) {
    ended = (async () => {
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const event: SseEvent = { event: 'message', data: undefined };
            const data: string[] = [];
            for (const line of block.split('\n')) {
              if (line.startsWith(':') || line.startsWith('retry:')) continue;
              const [field, ...rest] = line.split(':');
              const text = rest.join(':').replace(/^ /, '');
              if (field === 'event') event.event = text;
              else if (field === 'id') event.id = text;
              else if (field === 'data') data.push(text);
            }
            if (data.length === 0) continue;
            event.data = JSON.parse(data.join('\n'));
            events.push(event);
            notify();
          }
        }
      } catch {
        // aborted or dropped
      } finally {
        notify();
      }
    })();
  } else {
    await res.body?.cancel();
  }
  let finished = false;
  void ended.then(() => {
    finished = true;
    notify();
  });
  return {
    status: res.status,
    events,
    ended,
    waitFor(predicate, timeoutMs = DEFAULT_WAIT_MS) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (predicate(events)) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(events);
          } else if (finished) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`stream ended before the expected events; got ${JSON.stringify(events)}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for events; got ${JSON.stringify(events)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close() {
      controller.abort();
    },
  };
}

import { useEffect, useRef, useState } from 'react';
import { LIVE_EVENTS } from '../../contracts/support.ts';
import { reportSessionLost } from './session-events.ts';

/**
 * Subscribes to a Server-Sent Events stream for as long as the component is mounted. The browser's
 * EventSource reconnects by itself after a dropped connection and sends `Last-Event-ID`, so the
 * server replays what was missed. When a connection is refused outright (EventSource then gives
 * up: the server restarted, the session ended, the ticket is gone), the hook asks `onRefused`
 * whether to keep trying, and retries with a growing pause, or at once when the browser comes back
 * online. Handlers may see an event twice across reconnects: callers drop duplicates by id.
 */
export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'closed';

export function useLiveStream(
  url: string | null,
  handlers: Record<string, (data: unknown, id: string) => void>,
  options: { onRefused?: () => Promise<boolean> } = {},
): LiveStatus {
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;
  const refusedRef = useRef(options.onRefused);
  refusedRef.current = options.onRefused;

  useEffect(() => {
    if (!url) return;
    let source: EventSource | undefined;
    let lastId = '';
    let stopped = false;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let pause = 1000;

    const connect = () => {
      if (stopped) return;
      // After a hard failure the browser forgets the last id: carry it in the URL instead.
      const target = lastId ? `${url}${url.includes('?') ? '&' : '?'}after=${encodeURIComponent(lastId)}` : url;
      source = new EventSource(target, { withCredentials: true });
      source.onopen = () => {
        pause = 1000;
        setStatus('live');
      };
      const refused = () => {
        setStatus('reconnecting');
        void (refusedRef.current?.() ?? Promise.resolve(true)).then((keepTrying) => {
          if (stopped) return;
          if (!keepTrying) {
            setStatus('closed');
            return;
          }
          clearTimeout(retryTimer);
          retryTimer = setTimeout(connect, pause);
          pause = Math.min(pause * 2, 30_000);
        });
      };
      source.onerror = () => {
        if (source?.readyState !== EventSource.CLOSED) {
          setStatus('reconnecting');
          return;
        }
        refused();
      };
      // The server ended the stream on purpose (the viewer may no longer see it): ask why at once.
      source.addEventListener(LIVE_EVENTS.ended, () => {
        source?.close();
        refused();
      });
      for (const name of Object.keys(handlersRef.current)) {
        source.addEventListener(name, (event) => {
          const message = event as MessageEvent<string>;
          if (message.lastEventId) lastId = message.lastEventId;
          handlersRef.current[name]?.(JSON.parse(message.data), message.lastEventId);
        });
      }
    };

    // When the browser knows it is offline the stream is dead whatever the socket says: drop it, and
    // reconnect (resuming after the last id) the moment the network is back.
    const onOnline = () => {
      if (source?.readyState !== EventSource.CLOSED) return;
      clearTimeout(retryTimer);
      retryTimer = undefined;
      connect();
    };
    const onOffline = () => {
      source?.close();
      clearTimeout(retryTimer);
      setStatus('reconnecting');
    };
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
    connect();
    return () => {
      stopped = true;
      clearTimeout(retryTimer);
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
      source?.close();
    };
  }, [url]);

  return status;
}

/**
 * An `onRefused` that asks the stream's plain read endpoint why it was refused (`read`, a call of the
 * browser's client). Gone (one of `missingStatuses`): `onMissing` is called and the stream stops.
 * Signed out or no longer allowed: the page reloads, and its layout says so. Anything else (the
 * server unreachable for now): keep trying.
 */
export function askWhyRefused(
  read: () => Promise<{ status: number }>,
  onMissing?: () => void,
  missingStatuses: readonly number[] = [404],
) {
  return async (): Promise<boolean> => {
    const res = await read();
    if (onMissing && missingStatuses.includes(res.status)) {
      onMissing();
      return false;
    }
    // Signed out or no longer allowed: the request reported it (401), or does so here (403), and the
    // layout shows the login screen or "not allowed" in place of the page.
    if (res.status === 401 || res.status === 403) {
      if (res.status === 403) reportSessionLost();
      return false;
    }
    return true;
  };
}

/**
 * A list read by the route's loader and then kept up to date by a stream, for the filters `key`
 * names (a status, the inbox's query): the loader's list (`loaded`, for this key or null) shows
 * until the stream's first list for the same key arrives, which then replaces it; another key
 * starts again from its loader's list (an older stream's list would be stale by then). The status
 * says Live only once the stream's own list is shown. `streamed` is that list, or null before it.
 */
export function useLiveList<T>(options: {
  key: string;
  url: string | null;
  /** The stream's event that carries the list, and the list in its data. */
  event: string;
  read: (data: unknown) => T;
  loaded: T | null;
  onRefused: () => Promise<boolean>;
  /** The stream's other events (the inbox's presence), each to its handler. */
  also?: Record<string, (data: unknown) => void>;
}): { list: T | null; streamed: T | null; live: LiveStatus } {
  const { key } = options;
  const [received, setReceived] = useState<{ key: string; list: T } | null>(null);
  if (received && received.key !== key) setReceived(null);
  const status = useLiveStream(
    options.url,
    { ...options.also, [options.event]: (data) => setReceived({ key, list: options.read(data) }) },
    { onRefused: options.onRefused },
  );
  const streamed = received?.key === key ? received.list : null;
  return {
    list: streamed ?? options.loaded,
    streamed,
    live: status === 'live' && streamed === null ? 'connecting' : status,
  };
}

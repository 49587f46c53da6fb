import { Transform } from 'node:stream';

/**
 * The two edits the server makes to a rendered page on its way out (src/web/entry.server.tsx):
 *
 * - In the head, the app's module preloads get `fetchpriority="low"`
 *   (docs/decisions/122-scripts-after-the-stylesheets.md). React writes them ahead of the
 *   stylesheets, at the High priority of a script, and on a slow phone network a first visit spent
 *   its connections on ten scripts while the page waited for its stylesheets to draw. Every page
 *   works before its script runs, so the stylesheets go first.
 * - Just before `</body></html>`, what `beforeBodyEnd()` gives when the page has been written (the
 *   dates the page was drawn with: decision 121); after the end when the page does not close so.
 *
 * The head is held until `</head>` (a few kB; at most HEAD_LIMIT, then it passes as is), then only
 * the last bytes are held back, never the page.
 */
export const HEAD_LIMIT = 256 * 1024;

const HEAD_END = Buffer.from('</head>');
const BODY_END = Buffer.from('</body></html>');

/** Module preloads without a priority of their own get a low one. */
export function lowPriorityPreloads(head: string): string {
  return head.replace(/<link rel="modulepreload"(?![^>]*\bfetchpriority=)/g, '$& fetchpriority="low"');
}

export function pageEdits(options: { beforeBodyEnd: () => Buffer | null; onEnd?: () => void }): Transform {
  let head: Buffer | null = Buffer.alloc(0);
  let held = Buffer.alloc(0);
  const body = (transform: Transform, chunk: Buffer) => {
    const all = held.length ? Buffer.concat([held, chunk]) : chunk;
    const keep = Math.min(all.length, BODY_END.length);
    held = Buffer.from(all.subarray(all.length - keep));
    if (all.length > keep) transform.push(all.subarray(0, all.length - keep));
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (head === null) {
        body(this, chunk);
        return callback();
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf(HEAD_END);
      if (end === -1 && head.length <= HEAD_LIMIT) return callback();
      const [before, after] = end === -1 ? [head, Buffer.alloc(0)] : [head.subarray(0, end), head.subarray(end)];
      head = null;
      this.push(end === -1 ? before : Buffer.from(lowPriorityPreloads(before.toString('utf8'))));
      body(this, after);
      callback();
    },
    flush(callback) {
      options.onEnd?.();
      const rest = head ?? held;
      const extra = options.beforeBodyEnd();
      if (!extra) return callback(null, rest);
      const closes = rest.length >= BODY_END.length && rest.subarray(rest.length - BODY_END.length).equals(BODY_END);
      callback(
        null,
        closes
          ? Buffer.concat([rest.subarray(0, rest.length - BODY_END.length), extra, BODY_END])
          : Buffer.concat([rest, extra]),
      );
    },
  });
}

import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { HEAD_LIMIT, pageEdits } from './page-stream.ts';

const PAGE =
  '<!DOCTYPE html><html lang="en-NZ"><head><meta charSet="utf-8"/>' +
  '<link rel="modulepreload" href="/assets/entry.client.js" nonce="n1"/>' +
  '<link rel="modulepreload" href="/assets/framework.js" nonce="n1"/>' +
  '<link nonce="n1" rel="stylesheet" href="/assets/root.css"/>' +
  '</head><body><main><p>Where is my parcel?</p>' +
  '<link rel="modulepreload" href="/assets/in-the-body.js"/></main></body></html>';

/** The page sent through the edits cut into pieces of `size` bytes, as a stream may deliver it. */
async function edited(page: string, size: number, extra: string | null = null): Promise<string> {
  const bytes = Buffer.from(page);
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
  const out: Buffer[] = [];
  let ended = 0;
  const stream = Readable.from(pieces).pipe(
    pageEdits({ beforeBodyEnd: () => (extra === null ? null : Buffer.from(extra)), onEnd: () => ended++ }),
  );
  for await (const chunk of stream) out.push(chunk as Buffer);
  expect(ended).toBe(1);
  return Buffer.concat(out).toString('utf8');
}

describe('the edits a page gets on its way out', () => {
  it('gives the head’s module preloads a low priority and adds the extra before </body>, however the page is cut', async () => {
    const expected = PAGE.replace(
      /<link rel="modulepreload"( href="\/assets\/(entry\.client|framework)\.js")/g,
      '<link rel="modulepreload" fetchpriority="low"$1',
    ).replace('</body></html>', '<script type="application/json">{}</script></body></html>');
    for (const size of [1, 3, 7, 14, 15, 64, 100_000]) {
      expect(await edited(PAGE, size, '<script type="application/json">{}</script>'), `pieces of ${size}`).toBe(
        expected,
      );
    }
  });

  it('changes nothing but the preloads when there is nothing to add, and keeps a priority already given', async () => {
    const given = PAGE.replace('href="/assets/framework.js"', 'href="/assets/framework.js" fetchpriority="high"');
    const out = await edited(given, 5);
    expect(out).toContain('<link rel="modulepreload" href="/assets/framework.js" fetchpriority="high"');
    expect(out).toContain('<link rel="modulepreload" fetchpriority="low" href="/assets/entry.client.js"');
    expect(out.replaceAll(' fetchpriority="low"', '')).toBe(given);
  });

  it('adds the extra at the end of a page that does not close, and passes a page without a head as is', async () => {
    expect(await edited('<p>Not found</p>', 4, '<i>x</i>')).toBe('<p>Not found</p><i>x</i>');
    const long = `<html><body>${'x'.repeat(HEAD_LIMIT + 10)}<link rel="modulepreload" href="/a.js"/></body></html>`;
    expect(await edited(long, 4096)).toBe(long);
  });
});

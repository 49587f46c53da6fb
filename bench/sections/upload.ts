/** Section "upload": a 10 MB licence upload, and the server's peak memory growth while it streams. */
import { MB, median, rssOf } from '../lib/process-stats.ts';
import { uploadOnce } from '../lib/upload.ts';
import { ms, results, row, type Section } from './common.ts';
import type { ServerBench } from './server.ts';

export const uploadSection: Section<ServerBench> = {
  name: 'upload',
  title: 'Upload: a 10 MB licence, peak server memory growth while it streams',
  async run({ base, pid }) {
    // Peak RSS of the server (the kernel's VmHWM, reset just before) minus RSS just before each upload.
    await uploadOnce(base, pid, 64 * 1024); // loads the multipart path once
    const first = await uploadOnce(base, pid, 10 * 1024 * 1024);
    const rssStart = first.rssBefore;
    const large = [first];
    for (let i = 0; i < 7; i++) large.push(await uploadOnce(base, pid, 10 * 1024 * 1024));
    const small = await uploadOnce(base, pid, 100 * 1024);
    const oversize = await uploadOnce(base, pid, 50 * 1024 * 1024);
    const stored = [...large, small];
    const bad = stored.filter((u) => u.status !== 201);
    if (bad.length) throw new Error(`registration answered ${bad.map((u) => u.status).join(', ')}`);
    const growths = large.map((u) => u.growth);
    const med = median(growths);
    row(
      '10 MB licence: peak RSS growth',
      `median ${MB(med)}, max ${MB(Math.max(...growths))}`,
      '≤ 5 MB',
      med <= 5 * 1024 * 1024,
      `8 uploads in a row: ${growths.map((g) => MB(g).replace(' MB', '')).join(', ')} MB (${first.method}); upload ${ms(median(large.map((u) => u.ms)))}; a 100 kB licence: ${MB(small.growth)}`,
    );
    row(
      '50 MB file (over the limit, read to its end)',
      MB(oversize.growth),
      '',
      undefined,
      `answered ${oversize.status}; a server that buffered bodies would grow by ≥ 50 MB`,
    );
    row(
      'RSS kept after all 10 uploads (130 MB received)',
      `${MB(rssOf(pid) - rssStart)}`,
      '',
      undefined,
      `${MB(rssStart)} → ${MB(rssOf(pid))}: the peaks are read buffers already consumed, freed at V8's next GC (docs/performance.md)`,
    );
    results.upload = { large, small, oversize };
  },
};

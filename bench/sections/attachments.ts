/** Section "attachments": a 12 MP phone photo sent in the chat, re-encoded without its metadata. */
import { phonePhoto, sendPhotoOnce } from '../lib/attachments.ts';
import { MB, median } from '../lib/process-stats.ts';
import { ms, results, row, type Section } from './common.ts';
import type { ServerBench } from './server.ts';

export const attachmentsSection: Section<ServerBench> = {
  name: 'attachments',
  title: 'Photos in the chat: a 12 MP phone photo re-encoded without its metadata',
  async run({ base, pid, session, owners }) {
    const sender = await session(owners[5]!);
    const created = await fetch(`${base}/api/support/tickets`, {
      method: 'POST',
      headers: { ...sender.bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'Incident', message: 'Photos of the damaged suitcase follow.' }),
    });
    const { ticketId } = (await created.json()) as { ticketId: string };
    const photo = await phonePhoto(4000, 3000);
    await sendPhotoOnce(base, pid, sender.bearer, ticketId, await phonePhoto(800, 600)); // loads sharp once
    const runs = [];
    for (let i = 0; i < 5; i++) runs.push(await sendPhotoOnce(base, pid, sender.bearer, ticketId, photo));
    const bad = runs.filter((r) => r.status !== 200);
    if (bad.length) throw new Error(`photo send answered ${bad.map((r) => r.status).join(', ')}`);
    row(
      'send a 4000×3000 photo (median of 5)',
      ms(median(runs.map((r) => r.ms))),
      '',
      undefined,
      `${MB(photo.length)} sent, ${MB(runs[0]!.storedBytes)} kept (4096 px a side at most, no EXIF); HTTP round trip incl. thumbnail and storage`,
    );
    row(
      '  server memory growth (median)',
      MB(median(runs.map((r) => r.growth))),
      '',
      undefined,
      `peak RSS minus RSS before, per send (max ${MB(Math.max(...runs.map((r) => r.growth)))})`,
    );
    results.attachments = { photoBytes: photo.length, runs };
  },
};

/**
 * A photo sent on a ticket as the chat sends it (multipart, one `files` part), while the server's
 * peak resident memory is watched (as upload.ts does): the figure behind re-encoding photos to
 * remove their metadata (docs/decisions/095-chat-attachments.md).
 */
import sharp from 'sharp';
import { measureServerPeak } from './process-stats.ts';

/** A phone-sized photo: noisy pixels (so it compresses like a real one) with EXIF GPS tags. */
export async function phonePhoto(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 1) pixels[i] = ((i * 2654435761) >>> 24) & 0xff;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .withExif({ IFD0: { Make: 'Bench' }, IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '36/1 50/1 0/1' } })
    .toBuffer();
}

export interface PhotoFigure {
  status: number;
  ms: number;
  growth: number;
  storedBytes: number;
}

export async function sendPhotoOnce(
  base: string,
  pid: number,
  headers: Record<string, string>,
  ticketId: string,
  photo: Buffer,
): Promise<PhotoFigure> {
  const form = new FormData();
  form.append('messageBody', 'Photo of the damage');
  form.append('files', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  const contentType = encoded.headers.get('content-type')!;
  const measured = await measureServerPeak(pid, async () => {
    const res = await fetch(`${base}/api/support/tickets/${ticketId}/messages`, {
      method: 'POST',
      headers: { ...headers, 'content-type': contentType },
      body,
    });
    const json = (await res.json()) as { message?: { attachments?: Array<{ size: number }> } };
    return { status: res.status, storedBytes: json.message?.attachments?.[0]?.size ?? 0 };
  });
  return { ...measured.result, ms: measured.ms, growth: measured.growth };
}

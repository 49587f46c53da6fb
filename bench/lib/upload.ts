/**
 * A partner registration with a licence file of a given size, as the register page sends it, while
 * the server's peak resident memory is watched: the kernel's own peak mark (VmHWM, reset before
 * the upload) and, as a cross-check, RSS polled about every millisecond.
 */
import { randomBytes } from 'node:crypto';
import { measureServerPeak } from './process-stats.ts';

/** A PNG of exactly `size` bytes: the real signature and header chunk, then filler. */
export function pngOf(size: number): Buffer {
  const head = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
  const bytes = Buffer.alloc(size, 0x2a);
  head.copy(bytes, 0);
  return bytes;
}

function company() {
  const tag = randomBytes(3).toString('hex');
  const digits = String(Number.parseInt(tag, 16)).padStart(8, '0').slice(-8);
  return {
    companyName: `Harbour Freight ${tag}`,
    phoneNumber: `021${digits}`,
    address: '12 Quay Street, Auckland 1010',
    street: 'Level 3, Ferry Building',
    contactPersonName: 'Aroha Ngata',
    contactPersonJobTitle: 'Operations Manager',
    contactPersonPhoneNumber: `027${digits}`,
    contactPersonEmail: `aroha.${tag}@harbourfreight.co.nz`,
  };
}

export interface UploadFigure {
  bytes: number;
  status: number;
  ms: number;
  rssBefore: number;
  /** Peak RSS during the upload minus RSS just before it. */
  growth: number;
  /** Which measure `growth` is from. */
  method: 'VmHWM' | 'polled VmRSS';
  polledGrowth: number;
}

export async function uploadOnce(base: string, pid: number, size: number): Promise<UploadFigure> {
  const form = new FormData();
  for (const [name, value] of Object.entries(company())) form.append(name, value);
  form.append('commercialLicense', new Blob([new Uint8Array(pngOf(size))], { type: 'image/png' }), 'licence.png');
  // Encoded before the clock starts, so only the server's work is inside the window.
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  const contentType = encoded.headers.get('content-type')!;
  const measured = await measureServerPeak(pid, async () => {
    const res = await fetch(`${base}/api/companies`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    });
    await res.arrayBuffer();
    return res.status;
  });
  return {
    bytes: size,
    status: measured.result,
    ms: measured.ms,
    rssBefore: measured.rssBefore,
    growth: measured.growth,
    method: measured.method,
    polledGrowth: measured.polledGrowth,
  };
}

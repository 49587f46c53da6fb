import { PassThrough, type Readable } from 'node:stream';
import {
  COMPANY_LIMITS,
  COMPANY_MESSAGES,
  detectLicenseType,
  LICENSE_SNIFF_BYTES,
  type LicenseType,
} from '../../../contracts/companies.ts';
import { AppError } from '../../errors.ts';
import type { FileStorage } from '../../storage/storage.ts';

export type LicenseOutcome =
  | { kind: 'none' }
  | { kind: 'stored'; key: string; type: LicenseType; size: number }
  | { kind: 'refused'; message: string };

export function licenseKey(companyId: string, type: LicenseType): string {
  return `commercialLicenses/${companyId}.${type.ext}`;
}

class LicenseTooLargeError extends Error {
  override name = 'LicenseTooLargeError';
}

/**
 * Streams an uploaded licence into storage while checking it (UP-01, UP-02, UP-04):
 * - the type comes from the first bytes (JPEG or PNG), never from the name or declared type, and
 *   decides the stored extension; the client's file name is ignored;
 * - the size is counted as bytes arrive: one byte over 10 MB refuses the file and the partial
 *   upload is removed (the multipart parser stops one byte past the limit, so at most that much
 *   is ever read);
 * - the part is always read to its end (refused bytes are discarded), so the parser can go on to
 *   the fields after it.
 * The file goes straight to its final key, which names a company id that exists only if the
 * registration is then saved; the caller deletes it when the registration fails.
 */
export async function receiveLicense(
  storage: FileStorage,
  companyId: string,
  file: Readable,
  filename: string,
): Promise<LicenseOutcome> {
  const sink = new PassThrough();
  // Failures reach us through the upload's promise; an error event must never go unheard.
  sink.on('error', () => {});
  let key: string | null = null;
  let type: LicenseType | null = null;
  let upload: Promise<void> | null = null;
  let uploadError: unknown = null;
  let refusal: string | null = null;
  let head = Buffer.alloc(0);
  let size = 0;

  const start = (detected: LicenseType) => {
    type = detected;
    key = licenseKey(companyId, detected);
    upload = storage.put(key, sink, { contentType: detected.contentType });
    upload.catch((error: unknown) => {
      uploadError ??= error;
    });
  };

  // Waits for the storage to take more, or for the upload to end (then there is nothing to wait for).
  const send = async (chunk: Buffer) => {
    if (sink.write(chunk)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        sink.off('drain', done);
        sink.off('close', done);
        resolve();
      };
      sink.on('drain', done);
      sink.on('close', done);
      upload?.then(done, done);
    });
  };

  const discard = async () => {
    if (!upload) return;
    sink.destroy();
    await (upload as Promise<void>).catch(() => {});
    if (key) await storage.delete(key);
  };

  try {
    for await (const chunk of file as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (refusal !== null || uploadError !== null) continue;
      if (size > COMPANY_LIMITS.licenseMaxBytes) {
        refusal = COMPANY_MESSAGES.fileTooLarge;
        // Fails the upload in progress, so the storage removes what it had written.
        if (upload) sink.destroy(new LicenseTooLargeError(COMPANY_MESSAGES.fileTooLarge));
        continue;
      }
      if (!upload) {
        head = Buffer.concat([head, chunk]);
        if (head.length < LICENSE_SNIFF_BYTES) continue;
        const detected = detectLicenseType(head);
        if (!detected) {
          refusal = COMPANY_MESSAGES.fileUnsupported;
          continue;
        }
        start(detected);
        await send(head);
      } else {
        await send(chunk);
      }
    }
  } catch {
    // Only the incoming part can fail here (the upload's own failures are collected above): the
    // request was cut off or malformed. Nothing may stay behind, and it is the client's error.
    await discard();
    throw new AppError('INVALID_ARGUMENT', COMPANY_MESSAGES.unreadableForm);
  }

  if (refusal !== null) {
    await discard();
    return { kind: 'refused', message: refusal };
  }
  if (uploadError !== null) {
    await discard();
    throw uploadError;
  }
  if (!upload) {
    // The part ended before enough bytes arrived to recognise a type. Empty and nameless is "no
    // file chosen" (browsers send filename="", fetch sends no filename).
    if (size === 0 && !filename) return { kind: 'none' };
    return { kind: 'refused', message: COMPANY_MESSAGES.fileUnsupported };
  }
  sink.end();
  try {
    await upload;
  } catch (error) {
    await discard();
    throw error;
  }
  return { kind: 'stored', key: key!, type: type!, size };
}

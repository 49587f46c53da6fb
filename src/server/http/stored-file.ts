import type { FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';

/** `filename="…"` in ASCII for old clients, and the real name as `filename*` (RFC 6266, RFC 8187). */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^A-Za-z0-9._ -]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Sends a file people uploaded (an attachment, a partner's licence) the one way such files leave
 * the server (UP-05): nosniff, a CSP that sandboxes it if a browser renders it anyway, CORP
 * same-origin, never cached; the stream as it is (the endpoint's declaration describes only its
 * JSON errors).
 */
export function sendStoredFile(
  reply: FastifyReply,
  file: { contentType: string; disposition: string; size?: number; body: Readable | Buffer },
) {
  reply.headers({
    'content-type': file.contentType,
    'content-disposition': file.disposition,
    'content-security-policy': "default-src 'none'; sandbox",
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
  });
  if (file.size !== undefined) reply.header('content-length', file.size);
  return reply.send(file.body as never);
}

/**
 * A stored PDF (its type checked by its bytes when it came in) shown in a frame of our own pages: an
 * admin's first look at a partner's licence (docs/decisions/130-pdf-licences.md). Inline, so the
 * browser's own PDF viewer shows it from its first page; framed by our origin only; no scripts of
 * the document's own (script-src 'none'), nosniff, never cached. Not `sandbox` as sendStoredFile
 * has it: Chromium refuses to show a PDF in a sandboxed document, and the PDF viewer runs apart from
 * our origin. Only ever for application/pdf: an image or anything else goes through sendStoredFile.
 */
export function sendStoredPdfInFrame(
  reply: FastifyReply,
  file: { filename: string; size?: number; body: Readable | Buffer },
) {
  reply.headers({
    'content-type': 'application/pdf',
    'content-disposition': contentDispositionInline(file.filename),
    'content-security-policy': "default-src 'none'; script-src 'none'; frame-ancestors 'self'",
    'x-frame-options': 'SAMEORIGIN',
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
  });
  if (file.size !== undefined) reply.header('content-length', file.size);
  return reply.send(file.body as never);
}

/** `inline; filename="…"` for a name we made ourselves (ASCII only, no quotes). */
function contentDispositionInline(name: string): string {
  return `inline; filename="${name.replace(/[^A-Za-z0-9._-]/g, '_')}"`;
}

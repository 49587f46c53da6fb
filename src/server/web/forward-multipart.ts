import { PassThrough, Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import Busboy from '@fastify/busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export interface ForwardedForm {
  status: number;
  body: unknown;
  /** The form's text fields as they were sent, so the page can show them again (files are not kept). */
  fields: Record<string, string>;
}

/** An answer that is not JSON (a crash page) counts as no body: the page says the send failed. */
function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null;
  }
}

/** Text fields are short on every form we forward; these bound what is copied out for display. */
const FIELD_LIMITS = { fieldNameSize: 100, fieldSize: 10 * 1024, fields: 20, files: 10, parts: 30 } as const;

/**
 * A page's multipart form (partner registration, a message with files; without JavaScript) goes on to the API endpoint the
 * script would have called, as it arrives: the body streams into Fastify's `inject` with this
 * visitor's address, cookie and user agent, so the endpoint's limits, rate limits and file checks
 * apply unchanged and a 10 MB file is never held in memory. A second reader on the same stream
 * keeps only the text fields (files are drained), for the page to show the values again.
 */
export async function forwardMultipart(
  app: FastifyInstance,
  visitor: FastifyRequest,
  url: string,
  form: Request,
): Promise<ForwardedForm> {
  const contentType = form.headers.get('content-type') ?? '';
  const fields: Record<string, string> = {};
  const source = form.body ? Readable.fromWeb(form.body as NodeReadableStream<Uint8Array>) : Readable.from([]);
  const toApi = new PassThrough();
  source.pipe(toApi);

  if (contentType.toLowerCase().startsWith('multipart/form-data')) {
    try {
      const reader = new Busboy({ headers: { 'content-type': contentType }, limits: FIELD_LIMITS });
      reader.on('field', (name: string, value: string) => {
        fields[name] = value;
      });
      reader.on('file', (_name: string, file: Readable) => file.resume());
      // A malformed body is the endpoint's to report; this reader only stops copying.
      reader.on('error', () => source.unpipe(reader));
      source.pipe(reader);
    } catch {
      // No boundary in the header: the endpoint answers that the form cannot be read.
    }
  }

  const length = form.headers.get('content-length');
  const answer = await app.inject({
    method: 'POST',
    url,
    payload: toApi,
    remoteAddress: visitor.ip,
    headers: {
      'content-type': contentType,
      ...(length ? { 'content-length': length } : {}),
      accept: 'application/json',
      ...(visitor.headers.cookie ? { cookie: visitor.headers.cookie } : {}),
      ...(visitor.headers['user-agent'] ? { 'user-agent': visitor.headers['user-agent'] } : {}),
    },
  });
  // The endpoint may answer before reading everything (a refusal): what is left is drained, so
  // the browser's upload completes and it sees the page.
  source.unpipe(toApi);
  source.resume();
  return { status: answer.statusCode, body: parseJson(answer.body), fields };
}

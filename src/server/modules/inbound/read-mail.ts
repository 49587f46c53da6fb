import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ParsedMail } from 'mailparser';
import { unflow } from './flowed.ts';

/** A format=flowed parameter anywhere in the mail: the only mails that need the second look. */
const FLOWED = /format\s*=\s*"?flowed/i;

/**
 * A stored mail, parsed as the inbound worker and the held-mail view read it. mailparser unflows
 * `format=flowed` text without regard to quote depth (an answer under a soft-broken quoted line
 * joins the quote); for such a mail the text part is parsed as sent and unflowed here (flowed.ts).
 */
export async function readMail(raw: Buffer): Promise<ParsedMail> {
  // mailparser loads with the first mail read (a start's cost otherwise; decision 101).
  const { simpleParser } = await import('mailparser');
  const options = { skipImageLinks: true, skipTextToHtml: true } as const;
  if (!FLOWED.test(raw.toString('latin1'))) return simpleParser(raw, options);
  const { raw: fixed, flowed } = await withoutFlowed(raw);
  const parsed = await simpleParser(fixed, options);
  if (flowed && typeof parsed.text === 'string') parsed.text = unflow(parsed.text, flowed.delSp);
  return parsed;
}

/** The mail with its first flowed text part marked fixed, and how that part was flowed. */
async function withoutFlowed(raw: Buffer): Promise<{ raw: Buffer; flowed: { delSp: boolean } | null }> {
  let flowed: { delSp: boolean } | null = null;
  const { Joiner, Splitter } = await import('@zone-eu/mailsplit');
  const splitter = new Splitter();
  const joiner = new Joiner();
  const chunks: Buffer[] = [];
  splitter.on('data', (data) => {
    if (data.type === 'node' && data.contentType === 'text/plain' && data.flowed && !flowed) {
      flowed = { delSp: data.delSp };
      data.flowed = false;
      data.delSp = false;
      data.setContentType();
    }
  });
  joiner.on('data', (chunk: Buffer) => chunks.push(chunk));
  await pipeline(Readable.from([raw]), splitter, joiner);
  return { raw: Buffer.concat(chunks), flowed };
}

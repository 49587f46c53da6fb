import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { parseMail, type ReadMail } from './mail.ts';
import { DEFAULT_WAIT_MS, waitFor as waitForEffect } from './wait.ts';

/** A real SMTP server on 127.0.0.1 (random port) that keeps what it receives, for SMTP_URL mode tests. */
export interface SmtpSink {
  url: string;
  /**
   * While set, the server answers RCPT TO for matching recipients with this reply
   * instead of accepting (e.g. 421 "try later", 550 "no such mailbox"); `refusals` counts them.
   */
  refuse: { code: number; message: string; when?: (to: string) => boolean } | null;
  refusals: number;
  messages: Array<ReadMail & { envelopeTo: string[] }>;
  waitFor(to: string, count?: number, timeoutMs?: number): Promise<ReadMail[]>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: SmtpSink['messages'] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onRcptTo(address, _session, callback) {
      const refuse = sink.refuse;
      if (refuse && (!refuse.when || refuse.when(address.address))) {
        sink.refusals++;
        const error = Object.assign(new Error(refuse.message), { responseCode: refuse.code });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        parseMail(Buffer.concat(chunks))
          .then((mail) => {
            messages.push({ ...mail, envelopeTo: session.envelope.rcptTo.map((r) => r.address) });
            callback();
          })
          .catch(callback);
      });
    },
  });
  // A client killed mid-conversation (the crash tests do that) resets its connection: not our error.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const sink: SmtpSink = {
    url: `smtp://127.0.0.1:${port}`,
    refuse: null,
    refusals: 0,
    messages,
    waitFor: (to, count = 1, timeoutMs = DEFAULT_WAIT_MS) =>
      waitForEffect(
        `${count} mail(s) to ${to} over SMTP`,
        () => {
          const found = messages.filter((m) => m.envelopeTo.includes(to));
          return found.length >= count && found;
        },
        { timeoutMs, seen: () => `${messages.filter((m) => m.envelopeTo.includes(to)).length} to ${to}` },
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return sink;
}

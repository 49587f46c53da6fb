/**
 * Section "inbound": reply by email, from received mail to the message on the owner's open stream
 * (SMTP receiver, IMAP IDLE on Dovecot). Servers of its own (bench/lib/inbound.ts): PGlite, then a
 * PostgreSQL database created and dropped there.
 */
import { runInboundBench } from '../lib/inbound.ts';
import { MB } from '../lib/process-stats.ts';
import { ms, results, row, type Section } from './common.ts';

export const inboundSection: Section = {
  name: 'inbound',
  title: 'Reply by email: received mail → posted → on the owner’s open stream (SMTP receiver, IMAP IDLE on Dovecot)',
  async run() {
    const figures = await runInboundBench({ onProgress: (line) => console.log(`    ${line}`) });
    const spread = (l: { p50: number; p95: number; max: number }) =>
      `p50 ${ms(l.p50)}, p95 ${ms(l.p95)}, max ${ms(l.max)}`;
    for (const f of figures) {
      row(
        `${f.database}: SMTP 250 → message on the open stream`,
        spread(f.smtp),
        '',
        undefined,
        `${f.smtp.arrived} of ${f.smtp.mails} mails one at a time over one connection; SMTP transaction median ${ms(f.smtp.sendMedian)}`,
      );
      if (f.imap)
        row(
          `${f.database}: IMAP delivery → message on the open stream`,
          spread(f.imap),
          '',
          undefined,
          `${f.imap.arrived} of ${f.imap.mails} mails delivered one at a time by dovecot-lda, read in IDLE; dovecot-lda median ${ms(f.imap.sendMedian)}`,
        );
      else
        row(
          `${f.database}: IMAP delivery → message on the open stream`,
          'skipped',
          '',
          undefined,
          'Dovecot is not installed (apt-get install dovecot-imapd)',
        );
      const r = f.rate;
      row(
        `${f.database}: mails accepted (${r.senders} SMTP senders)`,
        `${Math.round(r.ackPerSecond)} mails/s`,
        '',
        undefined,
        `${r.acked} of ${r.mails} answered 250 in ${r.ackSeconds.toFixed(2)} s; refused or failed ${r.refused}`,
      );
      row(
        `${f.database}: mails posted`,
        `${Math.round(r.postPerSecond)} mails/s`,
        '',
        undefined,
        `${r.posted} on their streams ${r.postSeconds.toFixed(2)} s after the first send${r.posted < r.acked ? ' (TIMED OUT)' : ''}; inbound_mail after all three runs: ${Object.entries(
          r.states,
        )
          .map(([state, n]) => `${n} ${state}`)
          .join(', ')}; server RSS ${MB(r.rssBefore)} → ${MB(r.rssAfter)}`,
      );
    }
    results.inbound = figures;
  },
};

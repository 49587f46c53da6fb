/**
 * Section "mail": the mail outbox, recorded and delivered by the worker over SMTP and to .eml
 * files. On a database of its own (created and dropped in bench/lib/mail.ts) and in-memory PGlite,
 * after the shared server has stopped: figures only.
 */
import { runMailBench } from '../lib/mail.ts';
import { mailCount, mailSmtpCount, ms, results, row, type Section } from './common.ts';

export const mailSection: Section = {
  name: 'mail',
  title: `Mail outbox: ${mailCount} mails recorded; delivered by the worker (claims of 4, 4 at a time) over SMTP (${mailSmtpCount}) and to .eml files (${mailCount})`,
  async run() {
    const mail = await runMailBench({
      count: mailCount,
      smtpCount: mailSmtpCount,
      onProgress: (line) => console.log(`    ${line}`),
    });
    for (const r of mail.record) {
      row(
        `record rate, ${r.database}`,
        `${Math.round(r.perSecond)} mails/s`,
        '',
        undefined,
        `${r.mails} outbox.enqueue one after the other in ${r.seconds.toFixed(2)} s; each: median ${ms(r.medianMs)}, p99 ${ms(r.p99Ms)}`,
      );
    }
    for (const d of mail.delivery) {
      const states = Object.entries(d.states)
        .map(([state, n]) => `${n} ${state}`)
        .join(', ');
      row(
        `delivery rate, ${d.database} → ${d.target}`,
        `${Math.round(d.perSecond)} mails/s`,
        '',
        undefined,
        `${d.timedOut ? `TIMED OUT: ${d.received} of ${d.mails}` : d.mails} mails, worker start → last arrived ${d.seconds.toFixed(2)} s; first after ${ms(d.firstMs)}; ` +
          `one send: median ${ms(d.deliverMedianMs)}, p99 ${ms(d.deliverP99Ms)}`,
      );
      row(
        `  arrived (${d.target === '.eml directory' ? 'files' : 'SMTP messages'})`,
        `${d.received} of ${d.mails}`,
        '',
        undefined,
        `duplicates ${d.duplicates}, lost ${d.lost}` +
          (d.target === '.eml directory' ? '' : `, unknown Message-IDs ${d.unknown}`) +
          `; ${d.sends} sends; rows ${states}; worker delivered ${d.worker.delivered}, retried ${d.worker.retried}, failed ${d.worker.failed}` +
          (d.warnings + d.errors ? `; ${d.warnings} warnings, ${d.errors} errors, last: ${d.lastProblem}` : ''),
      );
    }
    results.mail = mail;
  },
};

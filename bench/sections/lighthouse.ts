/** Section "lighthouse": Lighthouse scores and metrics of the public pages, median of several runs. */
import { conversationTicket } from '../lib/fixtures.ts';
import { LIGHTHOUSE_VERSION, runLighthouse } from '../lib/lighthouse.ts';
import { median } from '../lib/process-stats.ts';
import { fixed, lighthouseRuns, ms, results, row, type Section } from './common.ts';
import type { ServerBench } from './server.ts';

export const lighthouseSection: Section<ServerBench> = {
  name: 'lighthouse',
  title: `Lighthouse ${LIGHTHOUSE_VERSION} (median of ${lighthouseRuns}; Performance / Accessibility / Best Practices / SEO)`,
  async run(bench) {
    const { base } = bench;
    const t0 = performance.now();
    const figures = await runLighthouse(base, ['/', '/about', '/faqs', '/legal', '/register', '/support'], {
      runs: lighthouseRuns,
      onProgress: (line) => console.log(`    ${line}`),
    });
    // A customer's ticket of 30 messages, signed in (the session cookie goes with every request).
    const { ticketId, customer } = await conversationTicket(bench);
    const [ticket] = await runLighthouse(base, [`/support/ticket/${ticketId}`], {
      runs: lighthouseRuns,
      presets: ['mobile'],
      extraHeaders: { cookie: customer.cookie },
      onProgress: (line) => console.log(`    ${line.replace(ticketId, ':id')}`),
    });
    for (const f of figures) {
      const s = f.scores;
      const all100 = s.performance === 100 && s.accessibility === 100 && s['best-practices'] === 100 && s.seo === 100;
      row(
        `Lighthouse ${f.preset} ${f.path}`,
        `${s.performance} / ${s.accessibility} / ${s['best-practices']} / ${s.seo}`,
        '100 on all four',
        all100,
        `LCP ${ms(f.metrics.lcp)}, TBT ${ms(f.metrics.tbt)}, CLS ${fixed(f.metrics.cls, 3)}, FCP ${ms(f.metrics.fcp)}; third-party ${f.thirdPartyRequests}` +
          (f.failing.length ? `; below 1: ${f.failing.join(', ')}` : ''),
      );
    }
    const t = ticket!;
    row(
      'Lighthouse mobile /support/ticket/:id (signed in, 30 messages)',
      `${t.scores.performance} / ${t.scores.accessibility} / ${t.scores['best-practices']} / ${t.scores.seo}`,
      'performance ≥ 95',
      t.scores.performance >= 95,
      `LCP ${ms(t.metrics.lcp)}, TBT ${ms(t.metrics.tbt)}, CLS ${fixed(t.metrics.cls, 3)}, FCP ${ms(t.metrics.fcp)}, SI ${ms(t.metrics.si)}; third-party ${t.thirdPartyRequests}` +
        (t.failing.length ? `; below 1: ${t.failing.join(', ')}` : ''),
    );
    figures.push({ ...t, path: '/support/ticket/:id' });
    const took = (performance.now() - t0) / 1000;
    row(
      'Lighthouse time',
      `${took.toFixed(0)} s`,
      '',
      undefined,
      `${figures.length * lighthouseRuns} runs, one at a time; CPU benchmark index median ${Math.round(median(figures.map((f) => f.benchmarkIndex ?? Number.NaN)))}`,
    );
    results.lighthouse = { version: LIGHTHOUSE_VERSION, seconds: took, figures };
  },
};

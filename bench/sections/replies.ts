/**
 * Section "replies": the reply trimmer over the fixture set (tests/fixtures/replies), as the unit
 * test reads it: exactly right, words lost, old mail posted, and the time per mail.
 */
import { readReplyCases, replyFigures } from '../../tests/helpers/reply-figures.ts';
import { ms, row, type Section } from './common.ts';

export const repliesSection: Section = {
  name: 'replies',
  title: 'Reply by email: the new words of a reply, over the fixture set (tests/fixtures/replies)',
  async run() {
    const started = performance.now();
    const cases = await readReplyCases();
    const took = performance.now() - started;
    const f = replyFigures(cases);
    const pct = (share: number) => `${(100 * share).toFixed(1)}%`;
    row('replies exactly right', `${pct(f.exactShare)} (${f.exact} of ${f.cases})`, '≥ 95%', f.exactShare >= 0.95);
    row(
      'replies that lose a word',
      `${f.lost.length} (${f.wordsLost} words)`,
      '0',
      f.lost.length === 0,
      f.lost.join(', '),
    );
    row(
      'replies that post old mail',
      `${pct(f.historyShare)} (${f.history.length})`,
      '≤ 2%',
      f.historyShare <= 0.02,
      `three or more words the person did not write: ${f.history.join(', ') || 'none'}`,
    );
    row(
      'time to read and trim one mail',
      ms(took / Math.max(1, f.cases)),
      '',
      undefined,
      `mean over ${f.cases} mails, parsing included`,
    );
  },
};

import { beforeAll, describe, expect, it } from 'vitest';
import {
  missingWords,
  normalise,
  readReplyCases,
  replyFigures,
  replyFixtureNames,
  type ReplyCase,
  words,
} from '../../../../tests/helpers/reply-figures.ts';
import { unflow } from './flowed.ts';
import { readMail } from './read-mail.ts';
import { newWords } from './reply-text.ts';

const NAMES = replyFixtureNames();

describe('newWords on replies from real mail programs', () => {
  let cases: ReplyCase[] = [];
  const byName = (name: string) => cases.find((c) => c.name === name)!;

  beforeAll(async () => {
    cases = await readReplyCases();
  });

  it('has at least 200 fixtures', () => {
    expect(NAMES.length).toBeGreaterThanOrEqual(200);
    expect(cases).toHaveLength(NAMES.length);
  });

  it('gives exactly the expected words for at least 95% of them', () => {
    const differ = cases.filter((c) => normalise(c.got.text) !== normalise(c.expected));
    const exact = cases.length - differ.length;
    console.log(
      `reply-text: ${exact}/${cases.length} exact (${((100 * exact) / cases.length).toFixed(1)}%)` +
        differ.map((c) => `\n--- ${c.name}\ngot:\n${c.got.text}\nexpected:\n${c.expected}`).join(''),
    );
    expect(exact / cases.length).toBeGreaterThanOrEqual(0.95);
  });

  it('posts old mail (three or more words the person did not write) for at most 2% of them', () => {
    const { history, historyShare } = replyFigures(cases);
    expect(historyShare, `history posted: ${history.join(', ')}`).toBeLessThanOrEqual(0.02);
  });

  it.each(NAMES)('%s: loses none of the expected words', (name) => {
    const { expected, got } = byName(name);
    expect(missingWords(expected, got.text)).toEqual([]);
  });

  it('says trimmed exactly when the mail held more than the new words', () => {
    const wrong = cases.filter((c) => c.got.trimmed !== (normalise(c.expected) !== normalise(c.mail.text ?? '')));
    expect(wrong.map((c) => c.name)).toEqual([]);
  });

  it('finds the same words from the HTML part alone', () => {
    const wrong = cases
      .filter((c) => typeof c.mail.html === 'string')
      .filter(
        (c) =>
          words(newWords({ html: c.mail.html, subject: c.mail.subject }).text).join(' ') !==
          words(c.expected).join(' '),
      );
    expect(wrong.map((c) => c.name)).toEqual([]);
  });
});

describe('newWords', () => {
  const quote = [
    'On Fri, 27 Nov 2026 at 10:12, Bagspace <reply+AbC7xQ2mPz9LkW4t@reply.bagspace.test> wrote:',
    '',
    '> New reply on ticket #1042',
    '>',
    '> > Sorry to hear that your bag hasn’t arrived yet.',
    '>',
    '> Ngā mihi,',
    '> The Bagspace team',
  ].join('\n');

  it('returns nothing for empty or blank input', () => {
    expect(newWords({})).toEqual({ text: '', trimmed: false });
    expect(newWords({ text: null, html: false })).toEqual({ text: '', trimmed: false });
    expect(newWords({ text: ' \n\t\n ', html: '  ' })).toEqual({ text: '', trimmed: false });
    expect(newWords({ html: '<div><br></div>' })).toEqual({ text: '', trimmed: false });
  });

  it('returns the whole text, untrimmed, when it is only a quote', () => {
    expect(newWords({ text: `${quote}\n\n` })).toEqual({ text: quote, trimmed: false });
    const html = newWords({ html: '<blockquote type="cite">Sorry to hear that.<br>Ngā mihi</blockquote>' });
    expect(html).toEqual({ text: '> Sorry to hear that.\n> Ngā mihi', trimmed: false });
  });

  it('keeps macrons, in text and HTML (entities included)', () => {
    const reply =
      'Kia ora, kei te pai. Ka tae mai taku pēke ā te Mane?\nKua hīkoi au ki Ōtaki, kua tūtaki ki te kōtiro.';
    expect(newWords({ text: `${reply}\n\n${quote}` })).toEqual({ text: reply, trimmed: true });
    const html = `<div>Kia ora, kei te pai. Ka tae mai taku p&#275;ke &#x101; te Mane?</div><div>Kua hīkoi au ki Ōtaki, kua tūtaki ki te kōtiro.</div><blockquote>${quote}</blockquote>`;
    expect(newWords({ html }).text).toBe(reply);
  });

  it('drops trailing spaces and blank lines but keeps the line breaks inside', () => {
    expect(newWords({ text: '\n\nFirst line   \nsecond line\n\n\n\nLast line \t\n\n\n' })).toEqual({
      text: 'First line\nsecond line\n\nLast line',
      trimmed: false,
    });
  });

  it('keeps a typed sign-off and a sentence that starts "Sent from", drops the phone’s line', () => {
    const text = 'Sent from Christchurch on the 20th.\n\nCheers,\nAroha\n\nSent from my iPhone\n\n' + quote;
    expect(newWords({ text }).text).toBe('Sent from Christchurch on the 20th.\n\nCheers,\nAroha');
  });

  it('treats very long lines like short ones (quoted stays quoted)', () => {
    const paragraph = `Kia ora, ${'the pēke is still at the depot and nobody has rung me. '.repeat(40)}`.trimEnd();
    const text = `${paragraph}\n\nOn Fri, 27 Nov 2026 at 10:12, Bagspace <a@b.nz> wrote:\n\n> Kia ora Aroha,\n> ${paragraph}\n> Ngā mihi`;
    expect(newWords({ text })).toEqual({ text: paragraph, trimmed: true });
  });

  it('cuts Outlook history that is not quoted, even when it contains quoted lines', () => {
    const text = [
      'Thanks, that works.',
      '',
      'From: Bagspace <reply+AbC7xQ2mPz9LkW4t@reply.bagspace.test>',
      'Sent: Friday, 27 November 2026 10:12 AM',
      'To: Aroha Ngata <aroha@example.co.nz>',
      'Subject: RE: New reply on ticket #1042',
      '',
      '> Sorry to hear that your bag hasn’t arrived yet.',
      '',
      'Reply to this email to answer.',
    ].join('\n');
    expect(newWords({ text })).toEqual({ text: 'Thanks, that works.', trimmed: true });
  });

  // The three ways a customer's words were lost: each a mail that posted only its first line.
  it('keeps a sentence that starts "Sent from my …" and what follows it', () => {
    const reply =
      'Hi team,\n\nSent from my work address because my home one is down.\nThe parcel number is NZ4471902235.\n\nAroha';
    expect(newWords({ text: `${reply}\n\n${quote}` })).toEqual({ text: reply, trimmed: true });
    expect(newWords({ text: reply })).toEqual({ text: reply, trimmed: false });
  });

  it('keeps a short rule the customer typed, and the words under it', () => {
    for (const rule of ['--', '----', '___', '====', '++++', '+++']) {
      const reply = `Order details:\n${rule}\nItem: 40 litre bag, olive\nTracking: NZ4471902235\n\nThanks`;
      expect(newWords({ text: `${reply}\n\n${quote}` }).text).toBe(reply);
    }
  });

  it('reads format=flowed by quote depth: an answer under a soft-broken quoted line stays the answer', async () => {
    const raw = [
      'From: Aroha <aroha@example.co.nz>',
      'To: Bagspace <reply+AbC7xQ2mPz9LkW4t@reply.bagspace.test>',
      'Subject: Re: New reply on ticket #1042',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=UTF-8; format=flowed; delsp=no',
      '',
      'On 27/11/2026 10:12 am, Bagspace wrote:',
      '> Could you tell us the tracking number? It is on the ',
      '> label. ',
      'NZ4471902235, and the bag is olive. It should be at the ',
      'depot by now.',
      '',
    ].join('\r\n');
    const mail = await readMail(Buffer.from(raw));
    expect(mail.text).toMatch(/> Could you tell us the tracking number\? It is on the label\. *\nNZ4471902235/);
    expect(newWords({ text: mail.text }).text).toBe(
      'NZ4471902235, and the bag is olive. It should be at the depot by now.',
    );
  });

  it('unflows by RFC 3676: soft breaks join at one depth, delsp drops the added space, "-- " stays hard', () => {
    expect(unflow('one \ntwo\n> three \n> four\n>> five \nsix', false)).toBe('one two\n> three four\n>> five \nsix');
    expect(unflow('long wo \nrd', true)).toBe('long word');
    expect(unflow('-- \nAroha', false)).toBe('-- \nAroha');
    expect(unflow(' >not a quote', false)).toBe('>not a quote');
  });

  it('cuts attributions and header blocks in other languages, and an attribution on the answer’s own line', () => {
    const history = '> New reply on ticket #1042\n> Kia ora';
    const cases: Array<[string, string]> = [
      ['Ja, gerne.', `Am 27.11.2026 um 10:12 schrieb Bagspace <reply+x@reply.bagspace.test>:\n${history}`],
      ['Oui, merci.', `Le ven. 27 nov. 2026 à 10:12, Bagspace <reply+x@reply.bagspace.test> a écrit :\n${history}`],
      [
        'Ja tak.',
        'Fra: Bagspace <reply+x@reply.bagspace.test>\nSendt: 27. november 2026 10:12\nTil: Aroha <a@b.dk>\nEmne: Re: New reply on ticket #1042\n\nKia ora Aroha',
      ],
      [
        'Tack.',
        'Från: Bagspace <reply+x@reply.bagspace.test>\nSkickat: den 27 november 2026 10:12\nTill: a@b.se\nÄmne: New reply on ticket #1042\n\nKia ora',
      ],
      [
        'Danke.',
        'Von: reply+x@reply.bagspace.test\nGesendet: Freitag, 27. November 2026 10:12\nAn: a@b.de\nBetreff: New reply on ticket #1042\n\nKia ora',
      ],
      [
        'Спасибо.',
        'От: Bagspace <reply+x@reply.bagspace.test>\nОтправлено: 27 ноября 2026 г. 10:12\nКому: a@b.ru\nТема: Re: New reply on ticket #1042\n\nKia ora',
      ],
      [
        'Cảm ơn.',
        `Vào Th 6, 27 thg 11, 2026 vào lúc 10:12 Bagspace <reply+x@reply.bagspace.test> đã viết:\n${history}`,
      ],
      ['Sounds good.', `---- Bagspace wrote ----\n\n${history}`],
    ];
    for (const [answer, rest] of cases) expect(newWords({ text: `${answer}\n\n${rest}` }).text, rest).toBe(answer);
    const oneLine = 'Yes, Tuesday is fine. On Fri, 27 Nov 2026 at 10:12 Bagspace <reply+x@reply.bagspace.test> wrote:';
    expect(newWords({ text: `${oneLine}\n${history}` }).text).toBe('Yes, Tuesday is fine.');
  });

  it('keeps a customer’s own "From: … / To: …" lines, and "wrote:" in a sentence', () => {
    const text = 'The bag went\nFrom: Auckland\nTo: Wellington\nDate: 3 December\n\nMy sister wrote: "it is olive".';
    expect(newWords({ text: `${text}\n\n${quote}` }).text).toBe(text);
  });

  it('keeps the question above each answer given between quoted lines, as a quote', () => {
    const text = [
      'On Fri, 27 Nov 2026 at 10:12, Bagspace <reply+x@reply.bagspace.test> wrote:',
      '> Kia ora Aroha,',
      '>',
      '> > Which day suits you for the pickup?',
      '',
      'Tuesday',
      '',
      '> > Is the bag still sealed?',
      'Yes',
      '',
      '> Ngā mihi,',
      '> The Bagspace team',
    ].join('\n');
    expect(newWords({ text }).text).toBe(
      '> Which day suits you for the pickup?\n\nTuesday\n\n> Is the bag still sealed?\n\nYes',
    );
  });

  it('keeps a forwarded message under the note, with its sender, date and subject', () => {
    const text = [
      'FYI, this came from the courier this morning.',
      '',
      '---------- Forwarded message ---------',
      'From: Kiri Walker <kiri@courier.example.co.nz>',
      'Date: Thu, 26 Nov 2026 at 16:40',
      'Subject: Your parcel NZ4471902235',
      'To: <aroha@example.co.nz>',
      '',
      'Kia ora Aroha,',
      'Your parcel is waiting at the Ōtaki depot.',
      '',
      'Sent from my iPhone',
    ].join('\n');
    expect(newWords({ text, subject: 'Fwd: Your parcel NZ4471902235' }).text).toBe(
      [
        'FYI, this came from the courier this morning.',
        '',
        'Forwarded message from Kiri Walker <kiri@courier.example.co.nz>',
        'Date: Thu, 26 Nov 2026 at 16:40',
        'Subject: Your parcel NZ4471902235',
        '',
        'Kia ora Aroha,',
        'Your parcel is waiting at the Ōtaki depot.',
      ].join('\n'),
    );
  });
});

/**
 * The search bench's data: 10,000 tickets with 10 messages each, written straight into the bench
 * database in batches (the API would take an hour for 100,000 messages; the search reads rows,
 * however they were written). The words follow Zipf's law over a support-desk vocabulary and a
 * long tail, with a fixed seed, so every run searches the same text; the generated search column
 * and its index are the app's own. The queries span the most common word of the corpus to words
 * nobody wrote (docs/performance.md, search).
 */
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../src/server/db/connection.ts';
import { queryRows } from '../../src/server/db/sql.ts';

const WORDS = (
  'parcel bag suitcase box package delivery traveller sender flight airport auckland wellington ' +
  'christchurch queenstown dunedin hamilton tauranga nelson late lost damaged broken cracked wet ' +
  'missing arrived delayed refund payment card charged twice receipt insurance claim photo handle ' +
  'wheel zip strap corner screen laptop guitar surfboard bike helmet shoes jacket book gift cake ' +
  'wine cheese honey medicine documents passport keys phone charger camera lens tripod blanket ' +
  'please help thanks sorry when where why how could would should today tomorrow yesterday week ' +
  'morning evening depot courier pickup dropoff address postcode weight size kilo fragile urgent'
).split(' ');

/**
 * Words drawn as in real text (Zipf's law, s = 1): the desk's own words first, most common first,
 * then a long tail of 4,000 made-up words (names of places, things and people in real messages).
 */
function zipfWords(random: () => number): () => string {
  const syllables = ['ka', 'ro', 'ta', 'ne', 'mi', 'wa', 'ho', 'ri', 'pu', 'te', 'ma', 'ki', 'lo', 'se', 'an', 'ur'];
  const tail = Array.from({ length: 4000 }, (_, i) => {
    let word = '';
    for (let n = i + 7; n > 0; n = Math.floor(n / syllables.length)) word += syllables[n % syllables.length];
    return word;
  });
  const vocabulary = [...WORDS, ...tail];
  const cumulative: number[] = [];
  let total = 0;
  for (let k = 1; k <= vocabulary.length; k++) cumulative.push((total += 1 / k));
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return vocabulary[lo]!;
  };
}

/** A small deterministic generator (mulberry32), so each run writes the same words. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function createSearchCorpus(
  database: DatabaseHandle,
  owners: string[],
  adminId: string,
  tickets = 10_000,
  messagesPerTicket = 10,
): Promise<void> {
  const random = seeded(20261124);
  const word = zipfWords(random);
  const sentence = () => {
    const length = 8 + Math.floor(random() * 14);
    return Array.from({ length }, word).join(' ') + '.';
  };
  const batch = 500;
  for (let start = 0; start < tickets; start += batch) {
    const count = Math.min(batch, tickets - start);
    const ownerIds = Array.from({ length: count }, (_, i) => owners[(start + i) % owners.length]!);
    const ids = await queryRows<{ id: string; user_id: string }>(
      database.db,
      sql`insert into support_tickets (user_id, reason)
          select x.user_id, 'General' from json_to_recordset(${JSON.stringify(ownerIds.map((user_id) => ({ user_id })))}::json)
            as x(user_id uuid)
          returning id, user_id`,
    );
    const messages = ids.flatMap((row) =>
      Array.from({ length: messagesPerTicket }, (_, m) => ({
        ticket_id: row.id,
        user_id: m % 2 === 1 ? adminId : row.user_id,
        admin: m % 2 === 1,
        message_body: sentence(),
      })),
    );
    await database.db.execute(
      sql`insert into ticket_messages (ticket_id, user_id, admin, message_body)
          select x.ticket_id, x.user_id, x.admin, x.message_body
          from json_to_recordset(${JSON.stringify(messages)}::json)
            as x(ticket_id uuid, user_id uuid, admin boolean, message_body text)`,
    );
  }
  await database.db.execute(sql`analyze support_tickets`);
  await database.db.execute(sql`analyze ticket_messages`);
}

/** What the bench searches for: one word, two words, a rare word, a phrase, an email fragment, a ticket number. */
export function searchQueries(email: string, ticketNo: number): string[] {
  return [
    'parcel',
    'suitcase',
    'surfboard',
    'cracked handle',
    'guitar wellington',
    'refund charged twice',
    '"lost parcel"',
    'passport -keys',
    email.slice(0, 10),
    String(ticketNo),
    '#' + String(ticketNo),
    'quokka',
  ];
}

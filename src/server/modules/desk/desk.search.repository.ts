import { sql } from 'drizzle-orm';
import { type AppDatabase } from '../../db/connection.ts';
import { likePattern, queryRows } from '../../db/sql.ts';

import { SNIPPET_MATCH_END as MATCH_END, SNIPPET_MATCH_START as MATCH_START } from '../../../contracts/desk.ts';

export interface SearchHit {
  ticketId: string;
  rank: number;
  /** The best-matching message's words around the match, matches between MATCH_START and MATCH_END. */
  snippet: string | null;
}

/** How many tickets a search answers with, best first. */
export const SEARCH_LIMIT = 50;

/**
 * How many matching messages are ranked, newest first. A word that most messages hold (a word
 * everybody writes) would otherwise rank the whole table on every keystroke; among that many matches
 * the newest are the ones the team looks for, and the answer shows 50 tickets anyway
 * (docs/performance.md, "8. Search").
 */
export const RANKED_MESSAGES = 5000;

/**
 * The inbox's search: ticket numbers, user emails and message text (PostgreSQL full text search
 * with English stemming, on the generated `search` column and its GIN index). Raw SQL: ranking,
 * websearch_to_tsquery and ts_headline have no builder form. A ticket number matches first, then
 * an email, then text by rank (ts_rank of the ticket's best message among the newest
 * RANKED_MESSAGES matches).
 */
export function createSearchRepository(db: AppDatabase) {
  return {
    async search(text: string): Promise<SearchHit[]> {
      const q = text.trim();
      if (!q) return [];
      const number = /^#?\d{1,9}$/.test(q) ? q.replace('#', '') : null;
      // A dash excludes the word it stands before; one before nothing (a space, another dash, the
      // end) excludes nothing, and a long run of them nests negations until PostgreSQL 15 refuses
      // the query ('tsquery stack too small': a 500, found by the fuzz). Only the dashes that
      // touch a word stay.
      const words = q.replace(/-+(?=[\s-]|$)/g, ' ');
      const rows = await queryRows<{ ticket_id: string; rank: number; snippet: string | null }>(
        db,
        sql`
        with query as (select websearch_to_tsquery('english', ${words}) as q),
        hits as (
          select c.ticket_id, max(ts_rank(c.search, query.q)) as rank
          from (
            -- The query written out here, not read from the CTE: then the planner sees the words and
            -- their frequency (the column's statistics), and for a word most messages hold walks the
            -- newest messages by id until it has enough instead of reading the word's whole index entry.
            select m.ticket_id, m.search from ticket_messages m
            where m.search @@ websearch_to_tsquery('english', ${words})
            order by m.id desc
            limit ${RANKED_MESSAGES}
          ) c, query
          group by c.ticket_id
        ),
        direct as (
          select t.id as ticket_id, 1000.0::real as rank from support_tickets t
          where ${number}::text is not null and t.ticket_no::text = ${number}::text
          union all
          select t.id, 100.0::real from support_tickets t join users u on u.id = t.user_id
          where u.email ilike ${likePattern(q)}
        ),
        ranked as (
          select ticket_id, max(rank) as rank from (select * from hits union all select * from direct) x
          group by ticket_id
          order by max(rank) desc
          limit ${SEARCH_LIMIT}
        )
        select r.ticket_id, r.rank,
          (select ts_headline('english', m.message_body, query.q,
                  ${`StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=24, MinWords=8, MaxFragments=2, FragmentDelimiter=" … "`})
             from ticket_messages m, query
             where m.ticket_id = r.ticket_id and m.search @@ query.q
             order by ts_rank(m.search, query.q) desc, m.id
             limit 1) as snippet
        from ranked r
        order by r.rank desc`,
      );
      return rows.map((r) => ({ ticketId: r.ticket_id, rank: Number(r.rank), snippet: r.snippet }));
    },
  };
}

export type SearchRepository = ReturnType<typeof createSearchRepository>;

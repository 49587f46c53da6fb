-- A wait whose ticket has used up its resolution target (its earlier waits took all of it) is due
-- for resolution the moment it starts: late from its first minute. bh_add(t, 0) from a closed hour
-- gave the last closing time before t instead, so a customer writing at 4 am found the ticket
-- "late by 10 h" at once (docs/decisions/108-service-levels.md).
CREATE OR REPLACE FUNCTION wait_dues(p_ticket uuid, p_phase text, p_started timestamptz,
    OUT response_due timestamptz, OUT resolution_due timestamptz) LANGUAGE sql STABLE AS $$
  SELECT
    bh_add(p_started, CASE p_phase WHEN 'first' THEN g.first_response ELSE g.next_response END),
    CASE WHEN r.left_minutes > 0 THEN bh_add(p_started, r.left_minutes) ELSE p_started END
  FROM support_tickets t JOIN service_targets g ON g.reason = t.reason
  CROSS JOIN LATERAL (
    SELECT g.resolution - coalesce((
      SELECT sum(bh_between(w.started_at, w.ended_at)) FROM ticket_waits w
      WHERE w.ticket_id = p_ticket AND w.ended_at IS NOT NULL), 0) AS left_minutes
  ) r
  WHERE t.id = p_ticket
$$;
--> statement-breakpoint
-- Open waits that were given such a time before this.
UPDATE ticket_waits SET resolution_due = started_at WHERE ended_at IS NULL AND resolution_due < started_at;

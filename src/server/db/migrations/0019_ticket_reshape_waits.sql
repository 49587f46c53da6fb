-- The waits of one ticket, or (without one) of every ticket that has none, from its messages: each
-- run of the customer's messages after an answer (or at the start) waits until the next answer, or
-- until the ticket closed; and its first answer. A split derives the new ticket's waits this way
-- (docs/decisions/116-ticket-merge.md), so its first response is the answer its first question got.
-- Open waits get their due times from the caller (a split) or when the server next makes the
-- calendar's intervals (a bulk load).
DROP FUNCTION derive_ticket_waits();
--> statement-breakpoint
CREATE FUNCTION derive_ticket_waits(p_only uuid DEFAULT NULL) RETURNS void LANGUAGE sql AS $$
  INSERT INTO ticket_waits (ticket_id, phase, started_at, ended_at, ended_by)
  SELECT q.ticket_id,
    CASE WHEN row_number() OVER (PARTITION BY q.ticket_id ORDER BY q.timestamp) = 1 THEN 'first' ELSE 'next' END,
    q.timestamp,
    coalesce(q.answered_at, CASE WHEN NOT t.open THEN greatest(coalesce(t.closed_at, t.last_message), q.timestamp) END),
    CASE WHEN q.answered_at IS NOT NULL THEN 'answer' WHEN NOT t.open THEN 'close' END
  FROM (
    -- Each message with the one before it and the team's next answer, in one pass per ticket.
    SELECT m.ticket_id, m.timestamp, m.admin,
      lag(m.admin) OVER w AS prev_admin,
      min(m.timestamp) FILTER (WHERE m.admin) OVER (w ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS answered_at
    FROM ticket_messages m
    WHERE NOT m.internal AND m.system_event IS NULL
      AND (p_only IS NULL OR m.ticket_id = p_only)
      AND NOT EXISTS (SELECT 1 FROM ticket_waits w WHERE w.ticket_id = m.ticket_id)
    WINDOW w AS (PARTITION BY m.ticket_id ORDER BY m.timestamp, m.id)
  ) q
  JOIN support_tickets t ON t.id = q.ticket_id
  WHERE NOT q.admin AND (q.prev_admin IS NULL OR q.prev_admin);

  UPDATE support_tickets t SET first_answer_at = f.ended_at, first_answer_by = f.user_id
  FROM (
    SELECT DISTINCT ON (w.ticket_id) w.ticket_id, w.ended_at, m.user_id
    FROM ticket_waits w
    JOIN ticket_messages m ON m.ticket_id = w.ticket_id AND m.admin AND NOT m.internal AND m.system_event IS NULL
    WHERE w.phase = 'first' AND w.ended_by = 'answer' AND (p_only IS NULL OR w.ticket_id = p_only)
    ORDER BY w.ticket_id, m.id
  ) f
  WHERE f.ticket_id = t.id AND t.first_answer_at IS NULL;
$$;

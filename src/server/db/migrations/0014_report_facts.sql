ALTER TABLE "support_tickets" ADD COLUMN "first_answer_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD COLUMN "first_answer_by" uuid;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD CONSTRAINT "support_tickets_first_answer_by_users_id_fk" FOREIGN KEY ("first_answer_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "support_tickets_created_idx" ON "support_tickets" USING btree ("creation_date");--> statement-breakpoint
CREATE INDEX "support_tickets_first_answer_by_idx" ON "support_tickets" USING btree ("first_answer_by") WHERE "support_tickets"."first_answer_by" is not null;--> statement-breakpoint
CREATE INDEX "support_tickets_closed_idx" ON "support_tickets" USING btree (coalesce("closed_at", "last_message")) WHERE not "support_tickets"."open";--> statement-breakpoint
CREATE INDEX "ticket_messages_answers_idx" ON "ticket_messages" USING btree ("timestamp") WHERE "ticket_messages"."admin" and not "ticket_messages"."internal" and "ticket_messages"."system_event" is null;--> statement-breakpoint
-- The first response, kept on the ticket: when the team's answer ended its first wait, and whose it
-- was (the reports read both instead of looking up each ticket's first wait and first answer).
CREATE OR REPLACE FUNCTION ticket_waits_on_message() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ended_phase text;
  ended timestamptz;
BEGIN
  IF NEW.internal OR NEW.system_event IS NOT NULL
      OR coalesce(current_setting('bagspace.restoring', true), '') = 'on' THEN
    RETURN NULL;
  END IF;
  IF NEW.admin THEN
    UPDATE ticket_waits SET ended_at = greatest(NEW.timestamp, started_at), ended_by = 'answer'
    WHERE ticket_id = NEW.ticket_id AND ended_at IS NULL
    RETURNING phase, ended_at INTO ended_phase, ended;
    IF ended_phase = 'first' THEN
      UPDATE support_tickets SET first_answer_at = ended, first_answer_by = NEW.user_id
      WHERE id = NEW.ticket_id AND first_answer_at IS NULL;
    END IF;
  ELSIF EXISTS (SELECT 1 FROM support_tickets WHERE id = NEW.ticket_id AND open)
      AND NOT EXISTS (SELECT 1 FROM ticket_waits WHERE ticket_id = NEW.ticket_id AND ended_at IS NULL) THEN
    INSERT INTO ticket_waits (ticket_id, phase, started_at, response_due, resolution_due)
    SELECT NEW.ticket_id, p.phase, NEW.timestamp, d.response_due, d.resolution_due
    FROM (SELECT CASE WHEN EXISTS (SELECT 1 FROM ticket_waits WHERE ticket_id = NEW.ticket_id)
                 THEN 'next' ELSE 'first' END AS phase) p,
         LATERAL wait_dues(NEW.ticket_id, p.phase, NEW.timestamp) d
    ON CONFLICT (ticket_id) WHERE ended_at IS NULL DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The waits of tickets written without the triggers (a bulk load with bagspace.restoring on, as
-- the reports bench does; migration 0013 did the same for the tickets already here): from their
-- messages, each run of the customer's messages after an answer (or at the start) waits until the
-- next answer, or until the ticket closed; and their first answers. Tickets with waits are left as
-- they are. Open waits get their due times when the server next makes the calendar's intervals.
CREATE FUNCTION derive_ticket_waits() RETURNS void LANGUAGE sql AS $$
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
    WHERE w.phase = 'first' AND w.ended_by = 'answer'
    ORDER BY w.ticket_id, m.id
  ) f
  WHERE f.ticket_id = t.id AND t.first_answer_at IS NULL;
$$;
--> statement-breakpoint
-- The tickets already here have their waits (migration 0013): this fills their first answers.
SELECT derive_ticket_waits();

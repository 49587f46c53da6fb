CREATE TABLE "auto_close_steps" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ticket_id" uuid NOT NULL,
	"after_message_id" bigint NOT NULL,
	"step" text NOT NULL,
	"closes_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "business_calendar" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "business_calendar_one_row" CHECK ("business_calendar"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "business_intervals" (
	"starts" timestamp with time zone PRIMARY KEY NOT NULL,
	"ends" timestamp with time zone NOT NULL,
	"minutes" double precision NOT NULL,
	"cum_before" double precision NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_level_alerts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"wait_id" bigint NOT NULL,
	"ticket_id" uuid NOT NULL,
	"target" text NOT NULL,
	"moment" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_targets" (
	"reason" text PRIMARY KEY NOT NULL,
	"first_response" integer NOT NULL,
	"next_response" integer NOT NULL,
	"resolution" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_waits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ticket_id" uuid NOT NULL,
	"phase" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_by" text,
	"response_due" timestamp with time zone,
	"resolution_due" timestamp with time zone,
	"due_at" timestamp with time zone GENERATED ALWAYS AS (least(response_due, resolution_due)) STORED,
	CONSTRAINT "ticket_waits_phase" CHECK ("ticket_waits"."phase" in ('first', 'next'))
);
--> statement-breakpoint
ALTER TABLE "ticket_messages" ADD COLUMN "system_event" text;--> statement-breakpoint
ALTER TABLE "auto_close_steps" ADD CONSTRAINT "auto_close_steps_ticket_id_support_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."support_tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_calendar" ADD CONSTRAINT "business_calendar_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_level_alerts" ADD CONSTRAINT "service_level_alerts_wait_id_ticket_waits_id_fk" FOREIGN KEY ("wait_id") REFERENCES "public"."ticket_waits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_level_alerts" ADD CONSTRAINT "service_level_alerts_ticket_id_support_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."support_tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_waits" ADD CONSTRAINT "ticket_waits_ticket_id_support_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."support_tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "auto_close_steps_uq" ON "auto_close_steps" USING btree ("ticket_id","after_message_id","step");--> statement-breakpoint
CREATE UNIQUE INDEX "business_intervals_cum_uq" ON "business_intervals" USING btree ("cum_before");--> statement-breakpoint
CREATE UNIQUE INDEX "service_level_alerts_uq" ON "service_level_alerts" USING btree ("wait_id","target","moment");--> statement-breakpoint
CREATE INDEX "service_level_alerts_ticket_idx" ON "service_level_alerts" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "ticket_waits_ticket_idx" ON "ticket_waits" USING btree ("ticket_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_waits_open_uq" ON "ticket_waits" USING btree ("ticket_id") WHERE "ticket_waits"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "ticket_waits_due_idx" ON "ticket_waits" USING btree ("due_at") WHERE "ticket_waits"."ended_at" is null;
--> statement-breakpoint
-- Business time in the database (docs/decisions/108-service-levels.md). business_intervals holds
-- the calendar's open hours as instants, each with the business minutes of all earlier rows.
-- bh_cum(t): business minutes from the first interval to t. bh_add(t, m): the instant m business
-- minutes after t (always inside an open interval, or its end).
CREATE FUNCTION bh_cum(t timestamptz) RETURNS double precision LANGUAGE sql STABLE AS $$
  SELECT coalesce((
    SELECT i.cum_before + greatest(0, least(extract(epoch FROM (t - i.starts)) / 60, i.minutes))
    FROM business_intervals i WHERE i.starts <= t ORDER BY i.starts DESC LIMIT 1), 0)
$$;
--> statement-breakpoint
CREATE FUNCTION bh_add(t timestamptz, m double precision) RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT i.starts + make_interval(secs => (x.target - i.cum_before) * 60)
  FROM (SELECT bh_cum(t) + m AS target) x
  JOIN LATERAL (
    SELECT starts, cum_before FROM business_intervals WHERE cum_before < x.target ORDER BY cum_before DESC LIMIT 1
  ) i ON true
$$;
--> statement-breakpoint
CREATE FUNCTION bh_between(a timestamptz, b timestamptz) RETURNS double precision LANGUAGE sql STABLE AS $$
  SELECT greatest(0, bh_cum(b) - bh_cum(a))
$$;
--> statement-breakpoint
-- The due times of a wait that starts at p_started: its answer (first or next response target) and
-- the ticket's resolution (its target less the business time of the ticket's earlier waits).
CREATE FUNCTION wait_dues(p_ticket uuid, p_phase text, p_started timestamptz,
    OUT response_due timestamptz, OUT resolution_due timestamptz) LANGUAGE sql STABLE AS $$
  SELECT
    bh_add(p_started, CASE p_phase WHEN 'first' THEN g.first_response ELSE g.next_response END),
    bh_add(p_started, greatest(0, g.resolution - coalesce((
      SELECT sum(bh_between(w.started_at, w.ended_at)) FROM ticket_waits w
      WHERE w.ticket_id = p_ticket AND w.ended_at IS NOT NULL), 0)))
  FROM support_tickets t JOIN service_targets g ON g.reason = t.reason WHERE t.id = p_ticket
$$;
--> statement-breakpoint
-- A customer's message starts a wait when none is open (the first one, or after an answer); the
-- team's answer ends it. Internal notes and the system's own lines (an auto-close) change nothing. A restore (server/backup.ts) copies the
-- waits as they were and sets bagspace.restoring to skip this.
CREATE FUNCTION ticket_waits_on_message() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.internal OR NEW.system_event IS NOT NULL
      OR coalesce(current_setting('bagspace.restoring', true), '') = 'on' THEN
    RETURN NULL;
  END IF;
  IF NEW.admin THEN
    UPDATE ticket_waits SET ended_at = greatest(NEW.timestamp, started_at), ended_by = 'answer'
    WHERE ticket_id = NEW.ticket_id AND ended_at IS NULL;
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
CREATE TRIGGER ticket_waits_message AFTER INSERT ON ticket_messages
  FOR EACH ROW EXECUTE FUNCTION ticket_waits_on_message();
--> statement-breakpoint
-- Closing ends the open wait (the clock stops); reopening starts a next-response wait.
CREATE FUNCTION ticket_waits_on_open() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('bagspace.restoring', true), '') = 'on' THEN
    RETURN NULL;
  END IF;
  IF NOT NEW.open THEN
    UPDATE ticket_waits SET ended_at = greatest(coalesce(NEW.closed_at, now()), started_at), ended_by = 'close'
    WHERE ticket_id = NEW.id AND ended_at IS NULL;
  ELSE
    INSERT INTO ticket_waits (ticket_id, phase, started_at, response_due, resolution_due)
    SELECT NEW.id, 'next', now(), d.response_due, d.resolution_due FROM wait_dues(NEW.id, 'next', now()) d
    ON CONFLICT (ticket_id) WHERE ended_at IS NULL DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_waits_open AFTER UPDATE OF open ON support_tickets
  FOR EACH ROW WHEN (OLD.open IS DISTINCT FROM NEW.open) EXECUTE FUNCTION ticket_waits_on_open();
--> statement-breakpoint
-- Default targets (contracts/service-levels.ts DEFAULT_TARGETS; a unit test keeps the two equal).
INSERT INTO service_targets (reason, first_response, next_response, resolution) VALUES
  ('General', 480, 480, 2400), ('Incident', 120, 240, 960), ('Deactivation', 240, 480, 1440);
--> statement-breakpoint
-- The waits of the tickets already here, from their messages: each run of the customer's messages
-- after an answer (or at the start) waits until the next answer, or until the ticket closed. Their
-- due times are filled when the server first makes the calendar's intervals.
INSERT INTO ticket_waits (ticket_id, phase, started_at, ended_at, ended_by)
SELECT s.ticket_id,
  CASE WHEN row_number() OVER (PARTITION BY s.ticket_id ORDER BY s.started_at) = 1 THEN 'first' ELSE 'next' END,
  s.started_at,
  coalesce(a.answered_at, CASE WHEN NOT t.open THEN greatest(coalesce(t.closed_at, t.last_message), s.started_at) END),
  CASE WHEN a.answered_at IS NOT NULL THEN 'answer' WHEN NOT t.open THEN 'close' END
FROM (
  SELECT ticket_id, timestamp AS started_at FROM (
    SELECT m.ticket_id, m.timestamp, m.admin,
      lag(m.admin) OVER (PARTITION BY m.ticket_id ORDER BY m.timestamp, m.id) AS prev_admin
    FROM ticket_messages m WHERE NOT m.internal AND m.system_event IS NULL) q
  WHERE NOT admin AND (prev_admin IS NULL OR prev_admin)
) s
JOIN support_tickets t ON t.id = s.ticket_id
LEFT JOIN LATERAL (
  SELECT min(m.timestamp) AS answered_at FROM ticket_messages m
  WHERE m.ticket_id = s.ticket_id AND m.admin AND NOT m.internal AND m.system_event IS NULL
    AND m.timestamp >= s.started_at
) a ON true;

-- The reports' rollups (docs/decisions/154-report-rollups.md). A report reads days, not messages:
-- report_days holds each New Zealand day's counts and histograms per reason, assignee, first
-- answerer and label; report_ticket_facts holds each ticket's settled times (business minutes,
-- clock hours, late or not), from which the days are counted; report_answers each admin's answer
-- days per ticket. The app keeps them (modules/reports, rollups): these tables are derived, never
-- backed up, and rebuilt from the tickets whenever they are lost.
--
-- Exactly and durably, like the outbox: every write that changes a ticket's figures (the ticket,
-- its messages, waits, rating and labels) adds its id to report_dirty in the write's own
-- transaction, by the statement triggers below; a change of the calendar or of the targets, which
-- changes every ticket's business times, sets report_state.rebuild. A worker takes the queue in
-- transactions of its own (the facts, then the days they touch through report_dirty_days), so a
-- kill -9 at any point leaves either the work done or its queue entry still there.
CREATE TABLE "report_dirty" (
  "id" bigserial PRIMARY KEY,
  "ticket_id" uuid NOT NULL
);--> statement-breakpoint
-- A round takes every queued row of the tickets it counts (a ticket's messages, waits and rating
-- each queue it again), by this index.
CREATE INDEX "report_dirty_ticket_idx" ON "report_dirty" ("ticket_id");--> statement-breakpoint
CREATE TABLE "report_dirty_days" ("day" date PRIMARY KEY);--> statement-breakpoint
CREATE TABLE "report_state" (
  "id" integer PRIMARY KEY CHECK ("id" = 1),
  "rebuild" boolean NOT NULL DEFAULT false
);--> statement-breakpoint
INSERT INTO "report_state" ("id", "rebuild") VALUES (1, false);--> statement-breakpoint
-- One row per ticket: what the report counts of it, as of its last change. Open tickets keep what
-- cannot change any more (a first answer's times) and the instants they become late. The zero uuid stands for "none"
-- (unassigned, no first answer), so it can be part of report_days' key.
CREATE TABLE "report_ticket_facts" (
  "ticket_id" uuid PRIMARY KEY,
  "created_day" date NOT NULL,
  "hour" smallint NOT NULL,
  "reason" text NOT NULL,
  "assignee" uuid NOT NULL,
  "first_by" uuid NOT NULL,
  "labels" uuid[] NOT NULL,
  "fr_min" double precision,
  "fr_hours" double precision,
  "fr_late" boolean,
  "closed_day" date,
  "res_min" double precision,
  "res_hours" double precision,
  "res_late" boolean,
  "rated_day" date,
  "good" boolean,
  -- An open ticket's moments of lateness, which pass without a write: the instant it is late for
  -- its first response (still waiting for one), and for its resolution (the business time it has
  -- waited on us passes the target while its open wait goes on; -infinity: past it already).
  "fr_due" timestamptz,
  "res_due" timestamptz
);--> statement-breakpoint
CREATE INDEX "report_ticket_facts_due_idx" ON "report_ticket_facts" ("created_day")
  WHERE "fr_due" IS NOT NULL OR "res_due" IS NOT NULL;--> statement-breakpoint
-- The newest comments of a range.
CREATE INDEX "ticket_ratings_updated_idx" ON "ticket_ratings" ("updated_at");--> statement-breakpoint
CREATE INDEX "report_ticket_facts_created_idx" ON "report_ticket_facts" ("created_day");--> statement-breakpoint
CREATE INDEX "report_ticket_facts_closed_idx" ON "report_ticket_facts" ("closed_day") WHERE "closed_day" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "report_ticket_facts_rated_idx" ON "report_ticket_facts" ("rated_day") WHERE "rated_day" IS NOT NULL;--> statement-breakpoint
-- One row per day and (reason, assignee, first answerer, label): the zero uuid as label is every
-- ticket, any other a label's tickets. `created` and `closed` are columns (the backlog sums them
-- over all earlier days); the rest (hours, counts, spread, ratings, histograms) is `figures`.
CREATE TABLE "report_days" (
  "label" uuid NOT NULL,
  "day" date NOT NULL,
  "reason" text NOT NULL,
  "assignee" uuid NOT NULL,
  "first_by" uuid NOT NULL,
  "created" integer NOT NULL,
  "closed" integer NOT NULL,
  "figures" jsonb NOT NULL,
  PRIMARY KEY ("label", "day", "reason", "assignee", "first_by")
);--> statement-breakpoint
-- Which days each admin answered each ticket on (a public answer of theirs), sorted: what
-- report_answer_days is counted from.
CREATE TABLE "report_answers" (
  "ticket_id" uuid NOT NULL,
  "user_id" uuid NOT NULL,
  "days" date[] NOT NULL,
  PRIMARY KEY ("ticket_id", "user_id")
);--> statement-breakpoint
CREATE INDEX "report_answers_days_idx" ON "report_answers" USING gin ("days");--> statement-breakpoint
-- Per day and (reason, assignee, admin, label): the admin's answers that day on tickets they had not
-- answered for `gap` days before, counted with those tickets' ratings, as {gap: [tickets, good,
-- rated]} (gap 100000: never before). A ticket answered on some day of a range counts once, on
-- the first of its answer days in the range: the one whose gap reaches back before the range.
CREATE TABLE "report_answer_days" (
  "label" uuid NOT NULL,
  "day" date NOT NULL,
  "reason" text NOT NULL,
  "assignee" uuid NOT NULL,
  "user_id" uuid NOT NULL,
  "gaps" jsonb NOT NULL,
  PRIMARY KEY ("label", "day", "reason", "assignee", "user_id")
);--> statement-breakpoint
CREATE FUNCTION report_mark_tickets() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO report_dirty (ticket_id) SELECT DISTINCT id FROM old_rows;
  ELSE
    INSERT INTO report_dirty (ticket_id) SELECT DISTINCT id FROM new_rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A row of a ticket's own table (messages, waits, rating, labels): its ticket, and on an update the
-- ticket it had before (a message moved by a merge or a split changes both).
CREATE FUNCTION report_mark_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO report_dirty (ticket_id) SELECT DISTINCT ticket_id FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO report_dirty (ticket_id) SELECT DISTINCT ticket_id FROM old_rows;
  ELSE
    INSERT INTO report_dirty (ticket_id)
      SELECT ticket_id FROM new_rows UNION SELECT ticket_id FROM old_rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION report_mark_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE report_state SET rebuild = true WHERE id = 1 AND NOT rebuild;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER report_tickets_insert AFTER INSERT ON support_tickets REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_tickets();--> statement-breakpoint
CREATE TRIGGER report_tickets_update AFTER UPDATE ON support_tickets REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_tickets();--> statement-breakpoint
CREATE TRIGGER report_tickets_delete AFTER DELETE ON support_tickets REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_tickets();--> statement-breakpoint
CREATE TRIGGER report_messages_insert AFTER INSERT ON ticket_messages REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_rows();--> statement-breakpoint
CREATE TRIGGER report_messages_update AFTER UPDATE ON ticket_messages REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_rows();--> statement-breakpoint
CREATE TRIGGER report_messages_delete AFTER DELETE ON ticket_messages REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_rows();--> statement-breakpoint
CREATE TRIGGER report_waits_insert AFTER INSERT ON ticket_waits REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_rows();--> statement-breakpoint
CREATE TRIGGER report_waits_update AFTER UPDATE ON ticket_waits REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_rows();--> statement-breakpoint
CREATE TRIGGER report_waits_delete AFTER DELETE ON ticket_waits REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_rows();--> statement-breakpoint
CREATE TRIGGER report_ratings_insert AFTER INSERT ON ticket_ratings REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_rows();--> statement-breakpoint
CREATE TRIGGER report_ratings_update AFTER UPDATE ON ticket_ratings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_rows();--> statement-breakpoint
CREATE TRIGGER report_ratings_delete AFTER DELETE ON ticket_ratings REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_rows();--> statement-breakpoint
CREATE TRIGGER report_labels_insert AFTER INSERT ON ticket_labels REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_rows();--> statement-breakpoint
CREATE TRIGGER report_labels_update AFTER UPDATE ON ticket_labels REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_rows();--> statement-breakpoint
CREATE TRIGGER report_labels_delete AFTER DELETE ON ticket_labels REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_rows();--> statement-breakpoint
-- The calendar's intervals are rebuilt whole (a delete, then inserts) and the targets change every
-- ticket of a reason: either way every ticket's figures are counted again.
CREATE TRIGGER report_intervals_rebuilt AFTER DELETE ON business_intervals
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_all();--> statement-breakpoint
CREATE TRIGGER report_targets_changed AFTER INSERT OR UPDATE OR DELETE ON service_targets
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_all();--> statement-breakpoint
-- The tickets already here: counted by the worker from this queue, which this migration's own
-- transaction fills (all of it, or none of it).
INSERT INTO report_dirty (ticket_id) SELECT id FROM support_tickets;

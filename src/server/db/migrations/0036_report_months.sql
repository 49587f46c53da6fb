-- The reports' month rollups (docs/decisions/154-report-rollups.md, "Months"). A year's report read
-- every day row of the year (14,000 rows and 13 MB of histograms at 100,000 tickets); a whole month
-- of a range is now one month row per (label, reason, assignee, first answerer), the sum of its days.
-- report_months is derived from report_days by the rollups' worker: a round that counts days again
-- queues their months in report_dirty_months in its own transaction, and the worker counts a queued
-- month from its days later. A report reads a month's row only when the month is not queued, and
-- its days otherwise, so it never reads a month older than its days.
CREATE TABLE "report_months" (
  "label" uuid NOT NULL,
  "month" date NOT NULL,
  "reason" text NOT NULL,
  "assignee" uuid NOT NULL,
  "first_by" uuid NOT NULL,
  "created" integer NOT NULL,
  "closed" integer NOT NULL,
  -- As report_days.figures, with the new tickets per weekday and hour (7 × 24, Monday first) in
  -- place of per hour, and without the day's ratings (read per day from report_days' columns).
  "figures" jsonb NOT NULL,
  PRIMARY KEY ("label", "month", "reason", "assignee", "first_by")
);--> statement-breakpoint
-- As report_answer_days for a whole month: the answers whose previous answer day on the ticket lies
-- before the month, their gaps counted back from the month's first day (those a range holding the
-- whole month counts; the others are counted on an earlier day of the month).
CREATE TABLE "report_answer_months" (
  "label" uuid NOT NULL,
  "month" date NOT NULL,
  "reason" text NOT NULL,
  "assignee" uuid NOT NULL,
  "user_id" uuid NOT NULL,
  "gaps" jsonb NOT NULL,
  PRIMARY KEY ("label", "month", "reason", "assignee", "user_id")
);--> statement-breakpoint
CREATE TABLE "report_dirty_months" ("month" date PRIMARY KEY);--> statement-breakpoint
-- The ratings given on a day, as columns: a report reads them per day (its weeks' Good share)
-- without reading the day's histograms.
ALTER TABLE "report_days" ADD COLUMN "rated_good" integer NOT NULL DEFAULT 0,
  ADD COLUMN "rated_all" integer NOT NULL DEFAULT 0;--> statement-breakpoint
UPDATE "report_days" SET "rated_good" = ("figures"->'rated'->>0)::int, "rated_all" = ("figures"->'rated'->>1)::int
  WHERE ("figures"->'rated'->>1)::int > 0;--> statement-breakpoint
-- Every month already counted in days is queued: the backfill is the worker's, and until it has
-- counted a month a report reads that month's days.
INSERT INTO "report_dirty_months" ("month") SELECT DISTINCT date_trunc('month', "day")::date FROM "report_days";--> statement-breakpoint
-- A report's newest comments: the commented ratings by their time, read newest first until enough
-- pass the report's filters.
CREATE INDEX "ticket_ratings_commented_idx" ON "ticket_ratings" ("updated_at")
  WHERE btrim(coalesce("comment", '')) <> '';

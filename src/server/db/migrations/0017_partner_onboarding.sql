CREATE TABLE "company_license_reminders" (
	"company_id" uuid NOT NULL,
	"expires_on" date NOT NULL,
	"days_before" smallint NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_license_reminders_company_id_expires_on_days_before_pk" PRIMARY KEY("company_id","expires_on","days_before")
);
--> statement-breakpoint
CREATE TABLE "company_status_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "company_events" DROP CONSTRAINT "company_events_kind_check";--> statement-breakpoint
DROP INDEX "companies_status_token_hash_uq";--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "review_stage" text DEFAULT 'received' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "submitted_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "requested_changes" jsonb;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "nzbn_lookup" jsonb;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "nzbn_lookup_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "nzbn_lookup_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "license_expires_on" date;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "license_hold_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "renewal_license_key" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "renewal_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "company_license_reminders" ADD CONSTRAINT "company_license_reminders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_status_links" ADD CONSTRAINT "company_status_links_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "company_status_links_company_idx" ON "company_status_links" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "companies_nzbn_lookup_due_idx" ON "companies" USING btree ("nzbn_lookup_due_at") WHERE "companies"."nzbn_lookup_due_at" is not null;--> statement-breakpoint
CREATE INDEX "companies_license_expires_idx" ON "companies" USING btree ("license_expires_on") WHERE "companies"."verified" = 1 and "companies"."license_expires_on" is not null;--> statement-breakpoint
-- The status links made before this migration move to their own table.
INSERT INTO "company_status_links" ("token_hash", "company_id", "created_at") SELECT "status_token_hash", "id", "created_at" FROM "companies" WHERE "status_token_hash" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" DROP COLUMN "status_token_hash";--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_review_stage_check" CHECK ("companies"."review_stage" in ('received', 'in_review', 'changes_requested'));--> statement-breakpoint
ALTER TABLE "company_events" ADD CONSTRAINT "company_events_kind_check" CHECK ("company_events"."kind" in ('received', 'approved', 'rejected', 'banned', 'unbanned', 'review_started', 'changes_requested', 'resubmitted', 'license_expired', 'license_sent', 'license_accepted', 'license_refused'));--> statement-breakpoint
-- Applications made before this migration were last sent for review when they were made; their NZBNs are looked up once a key is set.
UPDATE "companies" SET "submitted_at" = "created_at";--> statement-breakpoint
UPDATE "companies" SET "nzbn_lookup_due_at" = "created_at" WHERE "nzbn" IS NOT NULL;

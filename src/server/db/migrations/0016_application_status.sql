CREATE TABLE "company_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" uuid,
	CONSTRAINT "company_events_kind_check" CHECK ("company_events"."kind" in ('received', 'approved', 'rejected', 'banned', 'unbanned'))
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "status_token_hash" text;--> statement-breakpoint
ALTER TABLE "company_events" ADD CONSTRAINT "company_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_events" ADD CONSTRAINT "company_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "company_events_company_idx" ON "company_events" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "companies_status_token_hash_uq" ON "companies" USING btree ("status_token_hash");--> statement-breakpoint
-- History for the applications made before this migration: received when created; their current decision, and a ban, at their last change.
INSERT INTO "company_events" ("company_id", "kind", "created_at") SELECT "id", 'received', "created_at" FROM "companies" ORDER BY "created_at", "id";--> statement-breakpoint
INSERT INTO "company_events" ("company_id", "kind", "reason", "created_at") SELECT "id", CASE "verified" WHEN 1 THEN 'approved' ELSE 'rejected' END, CASE WHEN "verified" = 2 THEN "rejection_reason" END, "last_updated" FROM "companies" WHERE "verified" IN (1, 2) ORDER BY "last_updated", "id";--> statement-breakpoint
INSERT INTO "company_events" ("company_id", "kind", "created_at") SELECT "id", 'banned', "last_updated" FROM "companies" WHERE "is_banned" ORDER BY "last_updated", "id";

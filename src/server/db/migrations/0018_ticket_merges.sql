CREATE TABLE "ticket_merges" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text DEFAULT 'merge' NOT NULL,
	"source_ticket_id" uuid NOT NULL,
	"target_ticket_id" uuid NOT NULL,
	"actor_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"before" jsonb NOT NULL,
	"moved_message_ids" bigint[] NOT NULL,
	"moved_attachment_ids" uuid[] NOT NULL,
	"line_ids" bigint[] NOT NULL,
	"undone_at" timestamp with time zone,
	CONSTRAINT "ticket_merges_kind_check" CHECK ("ticket_merges"."kind" in ('merge', 'split'))
);
--> statement-breakpoint
ALTER TABLE "support_tickets" ADD COLUMN "merged_into_id" uuid;--> statement-breakpoint
ALTER TABLE "ticket_merges" ADD CONSTRAINT "ticket_merges_source_ticket_id_support_tickets_id_fk" FOREIGN KEY ("source_ticket_id") REFERENCES "public"."support_tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_merges" ADD CONSTRAINT "ticket_merges_target_ticket_id_support_tickets_id_fk" FOREIGN KEY ("target_ticket_id") REFERENCES "public"."support_tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_merges" ADD CONSTRAINT "ticket_merges_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_merges_source_idx" ON "ticket_merges" USING btree ("source_ticket_id");--> statement-breakpoint
CREATE INDEX "ticket_merges_target_idx" ON "ticket_merges" USING btree ("target_ticket_id");--> statement-breakpoint
ALTER TABLE "support_tickets" ADD CONSTRAINT "support_tickets_merged_into_id_support_tickets_id_fk" FOREIGN KEY ("merged_into_id") REFERENCES "public"."support_tickets"("id") ON DELETE set null ON UPDATE no action;
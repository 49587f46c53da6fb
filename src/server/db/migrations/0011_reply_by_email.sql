CREATE TABLE "inbound_mail" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"message_id" text NOT NULL,
	"raw_hash" text NOT NULL,
	"raw" "bytea",
	"size" integer NOT NULL,
	"via" text NOT NULL,
	"remote_address" text,
	"helo" text,
	"envelope_from" text,
	"recipients" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"from_address" text,
	"subject" text,
	"state" text DEFAULT 'received' NOT NULL,
	"reason" text,
	"ticket_id" uuid,
	"user_id" uuid,
	"posted_message_id" bigint,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" uuid,
	CONSTRAINT "inbound_mail_state_check" CHECK ("inbound_mail"."state" in ('received', 'processing', 'posted', 'held', 'ignored', 'discarded')),
	CONSTRAINT "inbound_mail_via_check" CHECK ("inbound_mail"."via" in ('smtp', 'imap'))
);
--> statement-breakpoint
CREATE TABLE "mail_reply_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"ticket_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ticket_messages" ADD COLUMN "inbound_mail_id" bigint;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mail_paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "ticket_id" uuid;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "bounced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "bounce" text;--> statement-breakpoint
ALTER TABLE "inbound_mail" ADD CONSTRAINT "inbound_mail_ticket_id_support_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."support_tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_mail" ADD CONSTRAINT "inbound_mail_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_mail" ADD CONSTRAINT "inbound_mail_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_reply_tokens" ADD CONSTRAINT "mail_reply_tokens_ticket_id_support_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."support_tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_reply_tokens" ADD CONSTRAINT "mail_reply_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_mail_message_id_uq" ON "inbound_mail" USING btree ("message_id","raw_hash");--> statement-breakpoint
CREATE INDEX "inbound_mail_message_idx" ON "inbound_mail" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "inbound_mail_due_idx" ON "inbound_mail" USING btree ("state","next_attempt_at");--> statement-breakpoint
CREATE INDEX "inbound_mail_ticket_idx" ON "inbound_mail" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "inbound_mail_user_idx" ON "inbound_mail" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "mail_reply_tokens_ticket_idx" ON "mail_reply_tokens" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "mail_reply_tokens_user_idx" ON "mail_reply_tokens" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_ticket_id_support_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."support_tickets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_outbox_ticket_idx" ON "mail_outbox" USING btree ("ticket_id");
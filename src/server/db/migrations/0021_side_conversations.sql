CREATE TABLE "side_conversation_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"conversation_id" uuid NOT NULL,
	"direction" text NOT NULL,
	"author_id" uuid,
	"body" text NOT NULL,
	"inbound_mail_id" bigint,
	"mail_message_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "side_conversation_messages_direction_check" CHECK ("side_conversation_messages"."direction" in ('out', 'in'))
);
--> statement-breakpoint
CREATE TABLE "side_conversation_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"conversation_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "side_conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ticket_id" uuid NOT NULL,
	"counterpart" text NOT NULL,
	"subject" text NOT NULL,
	"state" text DEFAULT 'waiting' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "side_conversations_state_check" CHECK ("side_conversations"."state" in ('waiting', 'answered', 'closed'))
);
--> statement-breakpoint
ALTER TABLE "inbound_mail" ADD COLUMN "side_conversation_id" uuid;--> statement-breakpoint
ALTER TABLE "side_conversation_messages" ADD CONSTRAINT "side_conversation_messages_conversation_id_side_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."side_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "side_conversation_messages" ADD CONSTRAINT "side_conversation_messages_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "side_conversation_messages" ADD CONSTRAINT "side_conversation_messages_inbound_mail_id_inbound_mail_id_fk" FOREIGN KEY ("inbound_mail_id") REFERENCES "public"."inbound_mail"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "side_conversation_tokens" ADD CONSTRAINT "side_conversation_tokens_conversation_id_side_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."side_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "side_conversations" ADD CONSTRAINT "side_conversations_ticket_id_support_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."support_tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "side_conversations" ADD CONSTRAINT "side_conversations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "side_conversation_messages_conversation_idx" ON "side_conversation_messages" USING btree ("conversation_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "side_conversation_messages_inbound_uq" ON "side_conversation_messages" USING btree ("inbound_mail_id");--> statement-breakpoint
CREATE INDEX "side_conversation_tokens_conversation_idx" ON "side_conversation_tokens" USING btree ("conversation_id");--> statement-breakpoint
CREATE INDEX "side_conversations_ticket_idx" ON "side_conversations" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "side_conversations_waiting_idx" ON "side_conversations" USING btree ("ticket_id") WHERE "side_conversations"."state" = 'waiting';
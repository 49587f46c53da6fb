CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"last_four" text NOT NULL,
	"scopes" text[] NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"rotated_from" uuid
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" bigint NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer,
	"error" text,
	"duration_ms" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" bigint NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"webhook_id" text NOT NULL,
	"subject" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"last_status" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone,
	CONSTRAINT "webhook_deliveries_state_check" CHECK ("webhook_deliveries"."state" in ('pending', 'delivered', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"events" text[] NOT NULL,
	"secret" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"disabled_reason" text,
	"failing_since" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"subject" text NOT NULL,
	"payload" jsonb NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "support_tickets" ADD COLUMN "delivery_reference" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_token_hash_uq" ON "api_keys" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "api_keys_created_idx" ON "api_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_attempts" USING btree ("delivery_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_webhook_id_uq" ON "webhook_deliveries" USING btree ("webhook_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("state","next_attempt_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_subject_idx" ON "webhook_deliveries" USING btree ("endpoint_id","subject","id") WHERE "webhook_deliveries"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_endpoints_enabled_idx" ON "webhook_endpoints" USING btree ("enabled");--> statement-breakpoint
CREATE INDEX "webhook_events_occurred_idx" ON "webhook_events" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "webhook_events_subject_idx" ON "webhook_events" USING btree ("subject");--> statement-breakpoint
CREATE INDEX "support_tickets_delivery_idx" ON "support_tickets" USING btree ("delivery_reference") WHERE "support_tickets"."delivery_reference" is not null;--> statement-breakpoint
-- Webhook events (docs/decisions/150-webhooks.md) are written by the database in the same transaction
-- as what they tell, whichever path made the change (a page, the API, a mailed reply, a bulk action,
-- a merge), and only while an enabled endpoint listens for their type: one delivery per endpoint.
CREATE FUNCTION webhook_emit(event_type text, event_subject text, event_data jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  new_event bigint;
BEGIN
  IF coalesce(current_setting('bagspace.restoring', true), '') = 'on' THEN
    RETURN;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE enabled AND event_type = ANY (events)) THEN
    RETURN;
  END IF;
  INSERT INTO webhook_events (type, subject, payload) VALUES (event_type, event_subject, event_data)
    RETURNING id INTO new_event;
  INSERT INTO webhook_deliveries (event_id, endpoint_id, webhook_id, subject)
    SELECT new_event, e.id, 'msg_' || replace(gen_random_uuid()::text, '-', ''), event_subject
    FROM webhook_endpoints e WHERE e.enabled AND event_type = ANY (e.events);
END
$$;
--> statement-breakpoint
CREATE FUNCTION webhook_ticket_data(t support_tickets) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'ticketId', t.id, 'ticketNo', t.ticket_no, 'userId', t.user_id, 'reason', t.reason,
    'status', CASE WHEN t.open THEN 'open' ELSE 'closed' END, 'deliveryReference', t.delivery_reference)
$$;
--> statement-breakpoint
CREATE FUNCTION webhook_ticket_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM webhook_emit('ticket.created', NEW.id::text,
      webhook_ticket_data(NEW) || jsonb_build_object('createdAt', NEW.creation_date));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM webhook_emit('ticket.status.changed', NEW.id::text,
      webhook_ticket_data(NEW) || jsonb_build_object('previousStatus', CASE WHEN OLD.open THEN 'open' ELSE 'closed' END));
  ELSE
    -- An erased ticket takes what the webhooks were to tell of it along (its messages' words among them).
    DELETE FROM webhook_events WHERE subject = OLD.id::text;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER support_tickets_webhooks_insert AFTER INSERT ON support_tickets
  FOR EACH ROW EXECUTE FUNCTION webhook_ticket_changes();
--> statement-breakpoint
CREATE TRIGGER support_tickets_webhooks_status AFTER UPDATE OF open ON support_tickets
  FOR EACH ROW WHEN (OLD.open IS DISTINCT FROM NEW.open) EXECUTE FUNCTION webhook_ticket_changes();
--> statement-breakpoint
CREATE TRIGGER support_tickets_webhooks_delete AFTER DELETE ON support_tickets
  FOR EACH ROW EXECUTE FUNCTION webhook_ticket_changes();
--> statement-breakpoint
-- A customer's or the team's message; never a note, never a line the system wrote.
CREATE FUNCTION webhook_message_created() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ticket support_tickets;
BEGIN
  SELECT * INTO ticket FROM support_tickets WHERE id = NEW.ticket_id;
  PERFORM webhook_emit('ticket.message.created', NEW.ticket_id::text,
    webhook_ticket_data(ticket) || jsonb_build_object(
      'messageId', NEW.id, 'author', CASE WHEN NEW.admin THEN 'staff' ELSE 'customer' END,
      'body', NEW.message_body, 'byEmail', NEW.inbound_mail_id IS NOT NULL, 'createdAt', NEW.timestamp));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_messages_webhooks AFTER INSERT ON ticket_messages
  FOR EACH ROW WHEN (NOT NEW.internal AND NEW.system_event IS NULL) EXECUTE FUNCTION webhook_message_created();
--> statement-breakpoint
CREATE FUNCTION webhook_ticket_merged() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  source support_tickets;
  target support_tickets;
BEGIN
  SELECT * INTO source FROM support_tickets WHERE id = NEW.source_ticket_id;
  SELECT * INTO target FROM support_tickets WHERE id = NEW.target_ticket_id;
  PERFORM webhook_emit('ticket.merged', NEW.source_ticket_id::text,
    webhook_ticket_data(source) || jsonb_build_object(
      'mergedIntoTicketId', target.id, 'mergedIntoTicketNo', target.ticket_no, 'mergedAt', NEW.created_at));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_merges_webhooks AFTER INSERT ON ticket_merges
  FOR EACH ROW WHEN (NEW.kind = 'merge') EXECUTE FUNCTION webhook_ticket_merged();
--> statement-breakpoint
CREATE FUNCTION webhook_ticket_rated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ticket support_tickets;
BEGIN
  SELECT * INTO ticket FROM support_tickets WHERE id = NEW.ticket_id;
  PERFORM webhook_emit('ticket.rated', NEW.ticket_id::text,
    webhook_ticket_data(ticket) || jsonb_build_object(
      'rating', CASE WHEN NEW.good THEN 'good' ELSE 'bad' END, 'comment', NEW.comment, 'ratedAt', NEW.updated_at));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_ratings_webhooks AFTER INSERT OR UPDATE OF good, comment ON ticket_ratings
  FOR EACH ROW EXECUTE FUNCTION webhook_ticket_rated();
--> statement-breakpoint
-- A partner application approved or rejected, or a company banned.
CREATE FUNCTION webhook_partner_decided() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_emit('partner.decided', NEW.id::text, jsonb_build_object(
    'companyId', NEW.id, 'companyName', NEW.company_name,
    'decision', CASE WHEN NEW.is_banned AND NOT OLD.is_banned THEN 'banned'
                     WHEN NEW.verified = 1 THEN 'approved' ELSE 'rejected' END,
    'decidedAt', now()));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER companies_webhooks AFTER UPDATE OF verified, is_banned ON companies
  FOR EACH ROW WHEN ((NEW.verified IN (1, 2) AND OLD.verified IS DISTINCT FROM NEW.verified)
    OR (NEW.is_banned AND NOT OLD.is_banned)) EXECUTE FUNCTION webhook_partner_decided();

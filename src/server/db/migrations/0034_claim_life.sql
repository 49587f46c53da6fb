ALTER TABLE "incident_claims" ADD COLUMN "traveller_email" text;--> statement-breakpoint
ALTER TABLE "incident_claims" ADD COLUMN "traveller_name" text;--> statement-breakpoint
ALTER TABLE "incident_claims" ADD COLUMN "traveller_statement" text;--> statement-breakpoint
ALTER TABLE "incident_claims" ADD COLUMN "traveller_asked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incident_claims" ADD COLUMN "traveller_answered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incident_claims" ADD COLUMN "traveller_message_id" bigint;--> statement-breakpoint
ALTER TABLE "incident_claims" ADD COLUMN "appealed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incident_claims" ADD COLUMN "appeal_reason" text;--> statement-breakpoint
ALTER TABLE "incident_claims" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incident_claims" ADD COLUMN "due_warned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incident_claims" ADD COLUMN "carrier_company_id" uuid;--> statement-breakpoint
ALTER TABLE "incident_claims" ADD COLUMN "notice_sent_on" date;--> statement-breakpoint
ALTER TABLE "incident_claims" ADD CONSTRAINT "incident_claims_traveller_message_id_ticket_messages_id_fk" FOREIGN KEY ("traveller_message_id") REFERENCES "public"."ticket_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_claims" ADD CONSTRAINT "incident_claims_carrier_company_id_companies_id_fk" FOREIGN KEY ("carrier_company_id") REFERENCES "public"."companies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "incident_claims_traveller_idx" ON "incident_claims" USING btree ("traveller_email") WHERE "incident_claims"."traveller_email" is not null;--> statement-breakpoint
-- A claim's periods in working days (docs/decisions/153-claim-life.md): the settings row
-- (`claims/periods`), else the defaults of contracts/claims.ts CLAIM_PERIODS (a test keeps the two equal).
CREATE FUNCTION claim_period(name text) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT coalesce(
    (SELECT (s.value ->> name)::integer FROM settings s WHERE s.key = 'claims/periods'),
    ('{"claimWindowDays": 7, "travellerAnswerDays": 2, "decisionDays": 5, "appealWindowDays": 10, "appealDecisionDays": 5}'::jsonb ->> name)::integer)
$$;
--> statement-breakpoint
-- The sender's answer to a request for information (a message of theirs on the ticket, by the page,
-- the API or mail) gives the claim back to the team, in the same transaction as the message: a
-- decision is due the decision period later.
CREATE FUNCTION claim_sender_answered() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE incident_claims c SET state = 'submitted', state_since = NEW.timestamp, version = c.version + 1,
    due_at = claim_working_days(NEW.timestamp, claim_period('decisionDays')), due_warned_at = NULL
  FROM support_tickets t
  WHERE c.ticket_id = NEW.ticket_id AND c.state = 'information-requested'
    AND t.id = NEW.ticket_id AND t.user_id = NEW.user_id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_messages_claim_answer AFTER INSERT ON ticket_messages
  FOR EACH ROW WHEN (NOT NEW.admin AND NOT NEW.internal AND NEW.system_event IS NULL)
  EXECUTE FUNCTION claim_sender_answered();
--> statement-breakpoint
-- The decision's event names the traveller too, once the claim asked one.
CREATE OR REPLACE FUNCTION webhook_claim_decided() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_emit('claim.decided', c.ticket_id::text, jsonb_build_object(
    'claimId', c.id, 'ticketId', c.ticket_id, 'ticketNo', t.ticket_no, 'deliveryReference', c.delivery_reference,
    'kind', c.kind, 'version', NEW.version, 'outcome', NEW.outcome, 'amount', NEW.amount_cents,
    'currency', 'NZD', 'itemValue', c.item_value_cents, 'reason', NEW.reason, 'decidedAt', NEW.decided_at,
    'appeal', EXISTS (SELECT 1 FROM claim_decisions p WHERE p.claim_id = c.id AND p.id <> NEW.id),
    'parties', jsonb_build_object('sender', jsonb_build_object('userId', t.user_id),
      'traveller', CASE WHEN c.traveller_email IS NULL THEN NULL
        ELSE jsonb_build_object('email', c.traveller_email, 'userId', tu.id) END)))
  FROM incident_claims c JOIN support_tickets t ON t.id = c.ticket_id
  LEFT JOIN users tu ON lower(tu.email) = lower(c.traveller_email)
  WHERE c.id = NEW.claim_id;
  RETURN NULL;
END
$$;

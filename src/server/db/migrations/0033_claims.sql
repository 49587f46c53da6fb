CREATE TABLE "claim_decisions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"claim_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"outcome" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"reason" text,
	"decided_by" uuid,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "incident_claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ticket_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"delivery_reference" text NOT NULL,
	"item_value_cents" integer,
	"delivered_on" date,
	"window_ends_on" date,
	"state" text DEFAULT 'submitted' NOT NULL,
	"state_since" timestamp with time zone DEFAULT now() NOT NULL,
	"due_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"outcome" text,
	"amount_cents" integer,
	"decision_reason" text,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "incident_claims_kind" CHECK ("incident_claims"."kind" in ('lost', 'damaged', 'late', 'not-as-described', 'other')),
	CONSTRAINT "incident_claims_state" CHECK ("incident_claims"."state" in ('submitted', 'information-requested', 'with-traveller', 'decided', 'appealed', 'closed')),
	CONSTRAINT "incident_claims_outcome" CHECK ("incident_claims"."outcome" is null or "incident_claims"."outcome" in ('upheld', 'part', 'declined'))
);
--> statement-breakpoint
ALTER TABLE "claim_decisions" ADD CONSTRAINT "claim_decisions_claim_id_incident_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."incident_claims"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_decisions" ADD CONSTRAINT "claim_decisions_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_claims" ADD CONSTRAINT "incident_claims_ticket_id_support_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."support_tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_claims" ADD CONSTRAINT "incident_claims_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "claim_decisions_version_uq" ON "claim_decisions" USING btree ("claim_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "incident_claims_ticket_uq" ON "incident_claims" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "incident_claims_due_idx" ON "incident_claims" USING btree ("due_at") WHERE "incident_claims"."due_at" is not null;--> statement-breakpoint
-- Working days in the database (docs/decisions/152-incident-claims.md): a working day is a New
-- Zealand date with opening hours in business_intervals (the team's calendar, as service levels
-- count it). claim_working_date(d, n): the n-th working date after d. claim_working_days(t, n): the
-- same New Zealand wall time as t on the n-th working date after t's date. Null when the calendar
-- has no such day within n weeks and two months.
CREATE FUNCTION claim_working_date(d date, n integer) RETURNS date LANGUAGE sql STABLE AS $$
  SELECT w.day FROM (
    SELECT DISTINCT (i.starts AT TIME ZONE 'Pacific/Auckland')::date AS day
    FROM business_intervals i
    WHERE i.starts >= (d + 1)::timestamp AT TIME ZONE 'Pacific/Auckland'
      AND i.starts < (d + 61 + 7 * n)::timestamp AT TIME ZONE 'Pacific/Auckland'
  ) w ORDER BY w.day OFFSET greatest(n, 1) - 1 LIMIT 1
$$;
--> statement-breakpoint
CREATE FUNCTION claim_working_days(t timestamptz, n integer) RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT (claim_working_date((t AT TIME ZONE 'Pacific/Auckland')::date, n)
    + (t AT TIME ZONE 'Pacific/Auckland')::time) AT TIME ZONE 'Pacific/Auckland'
$$;
--> statement-breakpoint
-- A decision tells the app once per version of the claim (claim_decisions_version_uq): its event's
-- subject is the ticket, so the ticket's erasure takes it along and its order is the ticket's.
CREATE FUNCTION webhook_claim_decided() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_emit('claim.decided', c.ticket_id::text, jsonb_build_object(
    'claimId', c.id, 'ticketId', c.ticket_id, 'ticketNo', t.ticket_no, 'deliveryReference', c.delivery_reference,
    'kind', c.kind, 'version', NEW.version, 'outcome', NEW.outcome, 'amount', NEW.amount_cents,
    'currency', 'NZD', 'itemValue', c.item_value_cents, 'reason', NEW.reason, 'decidedAt', NEW.decided_at,
    'appeal', EXISTS (SELECT 1 FROM claim_decisions p WHERE p.claim_id = c.id AND p.id <> NEW.id),
    'parties', jsonb_build_object('sender', jsonb_build_object('userId', t.user_id))))
  FROM incident_claims c JOIN support_tickets t ON t.id = c.ticket_id WHERE c.id = NEW.claim_id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER claim_decisions_webhooks AFTER INSERT ON claim_decisions
  FOR EACH ROW EXECUTE FUNCTION webhook_claim_decided();

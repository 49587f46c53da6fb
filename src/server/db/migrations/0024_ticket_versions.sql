CREATE SEQUENCE "public"."ticket_version_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD COLUMN "version" bigint DEFAULT nextval('ticket_version_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_messages" ADD COLUMN "ticket_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Owned by the column whose default it is: a restore moves it past the restored versions (backup.ts).
ALTER SEQUENCE "public"."ticket_version_seq" OWNED BY "support_tickets"."version";--> statement-breakpoint
-- Ticket versions (docs/decisions/140-stale-writes-stopped.md). A message (any: an answer, a note, the
-- customer's, a line a merge writes) takes the ticket's row lock, then the next version, so one
-- ticket's versions grow in the order its changes commit. The ticket takes the version once the
-- message is really stored (AFTER INSERT): an insert that ON CONFLICT skips (a retried send) changes
-- nothing. A restore (server/backup.ts, bagspace.restoring) copies versions as they were.
CREATE FUNCTION ticket_messages_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('bagspace.restoring', true), '') = 'on' THEN
    RETURN NEW;
  END IF;
  PERFORM 1 FROM support_tickets WHERE id = NEW.ticket_id FOR NO KEY UPDATE;
  NEW.ticket_version := nextval('ticket_version_seq');
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_messages_version BEFORE INSERT ON ticket_messages
  FOR EACH ROW EXECUTE FUNCTION ticket_messages_version();
--> statement-breakpoint
CREATE FUNCTION ticket_messages_stored_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('bagspace.restoring', true), '') = 'on' THEN
    RETURN NULL;
  END IF;
  UPDATE support_tickets SET version = greatest(version, NEW.ticket_version) WHERE id = NEW.ticket_id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_messages_stored_version AFTER INSERT ON ticket_messages
  FOR EACH ROW EXECUTE FUNCTION ticket_messages_stored_version();
--> statement-breakpoint
-- A change of what the team acts on (open or closed, who has it, its reason, merged into another)
-- is a new version; so is the ticket another is merged into (its thread grew).
CREATE FUNCTION support_tickets_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('bagspace.restoring', true), '') = 'on' THEN
    RETURN NEW;
  END IF;
  IF NEW.open IS DISTINCT FROM OLD.open OR NEW.assigned_to IS DISTINCT FROM OLD.assigned_to
      OR NEW.reason IS DISTINCT FROM OLD.reason OR NEW.merged_into_id IS DISTINCT FROM OLD.merged_into_id THEN
    NEW.version := nextval('ticket_version_seq');
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER support_tickets_version BEFORE UPDATE ON support_tickets
  FOR EACH ROW EXECUTE FUNCTION support_tickets_version();
--> statement-breakpoint
CREATE FUNCTION support_tickets_merge_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('bagspace.restoring', true), '') = 'on' THEN
    RETURN NULL;
  END IF;
  UPDATE support_tickets SET version = nextval('ticket_version_seq')
  WHERE id IN (OLD.merged_into_id, NEW.merged_into_id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER support_tickets_merge_version AFTER UPDATE OF merged_into_id ON support_tickets
  FOR EACH ROW WHEN (OLD.merged_into_id IS DISTINCT FROM NEW.merged_into_id)
  EXECUTE FUNCTION support_tickets_merge_version();

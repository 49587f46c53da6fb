-- A ticket's own notices (the owner's 'closed' or 'reopened' mail waiting), found by ticket and kind:
-- a close or reopen of one ticket, and a bulk action's of 500, look them up (docs/decisions/143-bulk-actions.md).
CREATE INDEX "notification_events_ticket_idx" ON "notification_events" USING btree ("ticket_id","kind");
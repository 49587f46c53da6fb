-- Macros (docs/decisions/145-macro-actions.md): a saved reply's actions (status, assignee, labels, a
-- note), applied with its reply as one change; {} keeps a saved reply plain.
ALTER TABLE "saved_replies" ADD COLUMN "actions" jsonb DEFAULT '{}'::jsonb NOT NULL;
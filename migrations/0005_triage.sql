-- Migration number: 0005 	 Triage: what the people running the company are doing with each enquiry, beside its delivery.
-- Delivery (`status`) says whether the lead reached the mailbox; triage says whether anyone has read
-- it, who has it, and how it ended. States: new (no operator has opened it) → open → replied →
-- closed (with an outcome). Rules for the moves: app/admin/triage.ts.

-- new | open | replied | closed. Existing rows that were delivered count as read (open); handled
-- ones as closed, with no outcome recorded (they were dealt with before triage existed).
ALTER TABLE enquiries ADD COLUMN triage TEXT NOT NULL DEFAULT 'new'
  CHECK (triage IN ('new', 'open', 'replied', 'closed'));
-- won | lost | not_a_fit | spam: set only when it is closed (the code clears it on reopening).
ALTER TABLE enquiries ADD COLUMN outcome TEXT
  CHECK (outcome IS NULL OR outcome IN ('won', 'lost', 'not_a_fit', 'spam'));
-- The operator who has it: their e-mail as Cloudflare Access gives it. NULL: nobody yet.
ALTER TABLE enquiries ADD COLUMN owner TEXT;
-- When a reply is due (ISO 8601 UTC): received_at plus INBOX_REPLY_BY_HOURS of weekday time,
-- written by the inbox the first time it reads the row. NULL for rows received before this
-- migration that were already read, and for held ones: those are never marked overdue.
ALTER TABLE enquiries ADD COLUMN reply_by TEXT;

UPDATE enquiries SET triage = 'open' WHERE status = 'delivered';
UPDATE enquiries SET triage = 'closed' WHERE status = 'handled';

-- The inbox's triage filters and counts.
CREATE INDEX enquiries_triage ON enquiries (triage, reply_by);
CREATE INDEX enquiries_owner ON enquiries (owner) WHERE owner IS NOT NULL;

-- Internal notes on an enquiry: who wrote it (the operator's e-mail), when, and what (2,000
-- characters at most). Never shown to the visitor; erased with the enquiry (the cascade).
CREATE TABLE enquiry_notes (
  id INTEGER PRIMARY KEY,
  enquiry_id TEXT NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
  author TEXT NOT NULL,
  created_at TEXT NOT NULL,
  body TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 2000)
);

CREATE INDEX enquiry_notes_enquiry ON enquiry_notes (enquiry_id, created_at);

-- The operators the inbox has seen (their e-mail, lower case, and when last), so an enquiry can be
-- assigned to any of them when ACCESS_ALLOWED_EMAILS does not list them. Written as they open it.
CREATE TABLE inbox_operators (
  email TEXT PRIMARY KEY NOT NULL,
  seen_at TEXT NOT NULL
);

-- Migration number: 0001 	 The enquiry record: every accepted enquiry, kept until a person has it.
-- Times are ISO 8601 UTC strings (`2026-11-23T12:00:00.000Z`), which sort as they compare.

CREATE TABLE enquiries (
  -- Random, URL-safe; shown to operators and in the delivered message.
  id TEXT PRIMARY KEY NOT NULL,
  -- One row per form fill: a repeated post with the same key is the same enquiry.
  idempotency_key TEXT NOT NULL UNIQUE,
  received_at TEXT NOT NULL,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  company TEXT NOT NULL DEFAULT '',
  -- Subject value (`devops`, `website`, `automation`, `voice-ai`, `general`).
  subject TEXT NOT NULL,
  message TEXT NOT NULL,
  -- pending → delivered | failed
  status TEXT NOT NULL DEFAULT 'pending',
  -- Delivery attempts made so far.
  attempts INTEGER NOT NULL DEFAULT 0,
  -- When the next attempt is due (pending rows); a claimed row's lease ends here.
  next_attempt_at TEXT,
  -- The last failure's cause: a code such as `upstream_timeout`, never a secret or an upstream body.
  last_cause TEXT,
  delivered_at TEXT,
  -- The delivery that delivered it (`form-service`, `email`).
  delivered_by TEXT
);

CREATE INDEX enquiries_due ON enquiries (status, next_attempt_at);
CREATE INDEX enquiries_received ON enquiries (received_at);

-- One row per delivery attempt: the enquiry's delivery history. Erased with its enquiry.
CREATE TABLE enquiry_attempts (
  enquiry_id TEXT NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,
  attempted_at TEXT NOT NULL,
  delivery TEXT NOT NULL,
  -- delivered | failed
  outcome TEXT NOT NULL,
  cause TEXT,
  PRIMARY KEY (enquiry_id, attempt)
);

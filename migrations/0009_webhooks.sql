-- Migration number: 0009 	 Webhooks: an outbox of events for the endpoints in WEBHOOK_ENDPOINTS.
-- An event is one message to one endpoint (named as WEBHOOK_ENDPOINTS names it, never its URL),
-- kept until it is delivered or its attempts run out; its `id` is the `webhook-id` every retry
-- and replay sends, so a receiver can de-duplicate. Nothing here holds anything a visitor typed:
-- the payload is built from the enquiry when each attempt is made (docs/integrations.md).

CREATE TABLE webhook_events (
  -- `msg_` and 32 hex digits: the Standard Webhooks `webhook-id`.
  id TEXT PRIMARY KEY NOT NULL,
  endpoint TEXT NOT NULL,
  -- enquiry.received | enquiry.erased
  type TEXT NOT NULL,
  -- No foreign key: an `enquiry.erased` outlives its enquiry.
  enquiry_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  -- pending → delivered | failed
  status TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  -- When the next attempt is due (pending rows); a claimed row's lease ends here.
  next_attempt_at TEXT,
  -- The attempt that holds the event, while one does (the enquiries' lease, migration 0003).
  lease_token TEXT,
  last_cause TEXT,
  -- One of each type per enquiry and endpoint: queuing it again changes nothing.
  UNIQUE (enquiry_id, endpoint, type)
);

CREATE INDEX webhook_events_due ON webhook_events (status, next_attempt_at);

-- One row per attempt: each endpoint's delivery history. Deleted with its event.
CREATE TABLE webhook_attempts (
  event_id TEXT NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,
  attempted_at TEXT NOT NULL,
  -- delivered | failed
  outcome TEXT NOT NULL,
  -- A code (`receiver_status`, `receiver_timeout`…), never a URL, a secret or a receiver's body.
  cause TEXT,
  -- The receiver's HTTP status, when it answered.
  http_status INTEGER,
  PRIMARY KEY (event_id, attempt)
);

CREATE INDEX webhook_attempts_at ON webhook_attempts (attempted_at);

-- Every erasure (an operator's, a person's request, a withdrawal, the retention purge) deletes the
-- enquiry's row, so this one rule covers them all: each endpoint that was sent its
-- `enquiry.received` (or has an attempt of it under way) is queued an `enquiry.erased`, due a
-- minute before now, so the cron run whose retention purge erased it sends it too; an
-- `enquiry.received` never attempted is dropped with the enquiry, and that endpoint is sent
-- nothing. The enquiry's `enquiry.received` rows and their history go with it.
CREATE TRIGGER webhook_events_erased AFTER DELETE ON enquiries
BEGIN
  INSERT OR IGNORE INTO webhook_events (id, endpoint, type, enquiry_id, created_at, status, attempts, next_attempt_at)
    SELECT 'msg_' || lower(hex(randomblob(16))), endpoint, 'enquiry.erased', OLD.id,
      strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'pending', 0, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-60 seconds')
    FROM webhook_events
    WHERE enquiry_id = OLD.id AND type = 'enquiry.received' AND (attempts > 0 OR lease_token IS NOT NULL);
  DELETE FROM webhook_events WHERE enquiry_id = OLD.id AND type = 'enquiry.received';
END;

-- Migration number: 0013 	 Early access: the visitors who asked for news of the products' launches.
-- One row per address (`address_key`, the address trimmed and lower-cased). `state`: 'pending' (signed
-- up, not yet confirmed; the cron deletes it 7 days after `signed_up_at`), 'confirmed' (pressed
-- Confirm on the link's page) or 'left' (pressed Leave; the cron deletes it 30 days after `left_at`).
-- `consent_version`: which consent line the form showed. No IP address, nothing else the visitor typed.
-- `mail_failed_at`: the confirmation could not be sent (logged, never retried).
CREATE TABLE early_access (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL,
  address_key TEXT NOT NULL UNIQUE,
  state TEXT NOT NULL CHECK (state IN ('pending', 'confirmed', 'left')),
  consent_version TEXT NOT NULL,
  signed_up_at TEXT NOT NULL,
  confirmed_at TEXT,
  left_at TEXT,
  mail_failed_at TEXT
);
CREATE INDEX early_access_state ON early_access (state, signed_up_at);

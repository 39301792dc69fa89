-- Migration number: 0008 	 Notices: the daily digest, delivery alerts and the prospect's receipt.
-- Nothing here holds an e-mail address or anything a visitor typed. Existing rows are untouched.

-- What has been sent, so that each goes once however many Worker instances run the cron:
--   kind 'digest', key the UTC day (`2026-11-24`): that day's digest was sent (or is being sent);
--   kind 'alert',  key the failure's cause (`upstream_status`): when the last alert for it went.
-- A row is claimed with one statement (INSERT … ON CONFLICT), so two runs cannot both send.
-- The cron deletes digest rows older than 30 days; alert rows are one per cause.
CREATE TABLE notices (
  kind TEXT NOT NULL,
  key TEXT NOT NULL,
  sent_at TEXT NOT NULL,
  PRIMARY KEY (kind, key)
);

-- One receipt a day per recipient: `recipient_hash` is an HMAC-SHA-256 of the lower-cased address
-- under RECEIPT_LINK_SECRET (never the address), `day` the UTC day. The cron deletes rows from
-- before yesterday, so none is kept more than two days.
CREATE TABLE receipt_days (
  recipient_hash TEXT NOT NULL,
  day TEXT NOT NULL,
  sent_at TEXT NOT NULL,
  PRIMARY KEY (recipient_hash, day)
);

-- Migration number: 0004 	 Floods: contact posts counted across every Cloudflare location, and held enquiries found fast.

-- How many contact posts each client key (an IPv4 address, an IPv6 /64) and network key (an IPv4
-- /24, an IPv6 /48) made in one rate-limit window (`window_start`: Unix time / the period, 60 s).
-- The key is never stored: `key_hash` is an HMAC-SHA-256 of it under that window's key (below).
-- A past window's rows are deleted by the first count of a new window and by every Cron Trigger
-- run (every minute), so none is kept more than two minutes.
CREATE TABLE contact_rate (
  window_start INTEGER NOT NULL,
  key_hash TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (window_start, key_hash)
);

-- One random key per window for the hashes above, made by the window's first post and deleted
-- with its counts: once it is gone, no hash can be tied to an address, even by trying every one.
CREATE TABLE contact_rate_keys (
  window_start INTEGER PRIMARY KEY NOT NULL,
  secret TEXT NOT NULL
);

-- Held enquiries by time received: the hourly cap's count, the 14-day purge, the inbox's bulk
-- erasure by day or reason (a partial index: only held rows are in it; `status` first, so the
-- planner prefers it to enquiries_due for `status = 'held'`, and it covers those queries).
CREATE INDEX enquiries_held ON enquiries (status, received_at, held_reason) WHERE status = 'held';

-- Migration number: 0011 	 Receipts: daily caps per network and for the whole site.
-- One row a UTC day per network that was sent a receipt (`key` an HMAC of its /48 or /24 under
-- RECEIPT_LINK_SECRET, never the address) and one for the whole site (`key` 'site'), with how many
-- receipts went. A receipt past either cap is not sent (docs/notices.md, "Bounds"). The cron deletes
-- rows from before yesterday, as it does receipt_days.
CREATE TABLE receipt_counts (
  day TEXT NOT NULL,
  key TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (day, key)
);

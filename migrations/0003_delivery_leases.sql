-- Migration number: 0003 	 Each delivery attempt holds its own lease on the enquiry.
-- A claim (the request's first attempt, a cron run, an operator's retry or release) writes a new
-- random token and the time its lease ends; the step that records the attempt's result changes
-- the enquiry only while its token is still there, and clears it. An operator's retry or release
-- never takes an enquiry whose lease is live: it answers "busy". Existing rows hold no lease
-- (NULL), so every one of them can be claimed as before.

-- The token of the attempt that holds the enquiry, while one does.
ALTER TABLE enquiries ADD COLUMN lease_token TEXT;
-- When that lease ends: after it, the enquiry may be claimed again (an attempt cut off midway).
ALTER TABLE enquiries ADD COLUMN lease_until TEXT;

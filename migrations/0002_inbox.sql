-- Migration number: 0002 	 The operator's inbox: enquiries held back from delivery, and enquiries a person has handled.
-- Statuses now: pending → delivered | failed; held (stored, not delivered until an operator
-- releases it: → pending); any of them → handled (an operator has dealt with it; never delivered after).

-- Why an enquiry is held (a code such as `turnstile_missing`), while it is held.
ALTER TABLE enquiries ADD COLUMN held_reason TEXT;
-- When an operator marked it handled, and who (the operator's e-mail from the Access token).
ALTER TABLE enquiries ADD COLUMN handled_at TEXT;
ALTER TABLE enquiries ADD COLUMN handled_by TEXT;

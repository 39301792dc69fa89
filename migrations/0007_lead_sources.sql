-- Migration number: 0007 	 Where each lead came from, recorded without cookies.
-- Every column is optional: an enquiry stored before this migration, or sent by a client that
-- told nothing, has none (NULL), and the inbox shows it as "not recorded".

-- The page the form was sent from: a path on this site (`/contact`).
ALTER TABLE enquiries ADD COLUMN source_page TEXT;
-- The first page of the visit on this site, when known (`/services/devops`).
ALTER TABLE enquiries ADD COLUMN first_page TEXT;
-- The host of the other site that linked to the visit's first page (`www.google.com`): never the
-- full address, and none when the visit began from a page of this site or with no referrer.
ALTER TABLE enquiries ADD COLUMN referrer_host TEXT;
-- The first page's `utm_source`, `utm_medium` and `utm_campaign` (at most 100 characters each).
ALTER TABLE enquiries ADD COLUMN utm_source TEXT;
ALTER TABLE enquiries ADD COLUMN utm_medium TEXT;
ALTER TABLE enquiries ADD COLUMN utm_campaign TEXT;

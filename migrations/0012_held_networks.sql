-- Migration number: 0012 	 Held enquiries: the hourly cap counts per network.
-- `held_network`: for an enquiry held because its Turnstile token was missing or refused, an HMAC of
-- the network it came from (IPv6 /48, IPv4 /24) under that UTC day's random key; never the address.
-- NULL for every other enquiry, and for one held because siteverify could not be asked (those do not
-- count towards the cap). `held_network_keys`: one random key a UTC day; a post's hash is matched
-- under today's and yesterday's, and keys older than yesterday are deleted, after which no hash can
-- be tied to a network again. docs/contact.md, "Floods".
ALTER TABLE enquiries ADD COLUMN held_network TEXT;
CREATE INDEX enquiries_held_network ON enquiries (held_network, received_at) WHERE held_network IS NOT NULL;
CREATE TABLE held_network_keys (
  day TEXT PRIMARY KEY,
  secret TEXT NOT NULL
);

-- Migration number: 0006 	 The audit trail: one line per operator action, append-only.
-- Who (the operator's e-mail from the Access token), when, what (an action code such as `open`,
-- `export`, `retry`, `release`, `erase`, `erase-held`, `person-export`, `person-erase`), which
-- enquiry (its id, or NULL for an action on many), and a short detail that never holds what a
-- visitor wrote. No foreign key: erasing an enquiry keeps its lines, with the id only.

CREATE TABLE audit_log (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL,
  operator TEXT NOT NULL,
  action TEXT NOT NULL,
  enquiry_id TEXT,
  detail TEXT NOT NULL DEFAULT ''
);

CREATE INDEX audit_log_enquiry ON audit_log (enquiry_id, seq) WHERE enquiry_id IS NOT NULL;
CREATE INDEX audit_log_at ON audit_log (at);

-- Append-only in the database itself: no line can be changed, and none deleted until it is older
-- than the audit trail's retention, 400 days (`auditRetentionDays` in app/content/facts.ts, which
-- the privacy page states; tests/unit/audit.test.ts checks the two agree). The Cron Trigger's purge
-- deletes those.
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;

CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
WHEN OLD.at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-400 days')
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only: lines are deleted only after 400 days');
END;

-- Migration number: 0010 	 The audit trail: no insert replaces a line.
-- In SQLite, `INSERT OR REPLACE INTO audit_log (seq, …)` with the seq of an existing line deletes
-- that line and writes another in its place, and the REPLACE fires neither the UPDATE trigger nor
-- the DELETE trigger of 0006 (SQLite fires delete triggers on a REPLACE only with
-- recursive_triggers on, https://www.sqlite.org/lang_conflict.html). This trigger refuses any insert
-- whose seq is already taken, before the conflict is resolved: a new line always gets a new seq.
CREATE TRIGGER audit_log_no_replace BEFORE INSERT ON audit_log
WHEN NEW.seq IS NOT NULL AND EXISTS (SELECT 1 FROM audit_log WHERE seq = NEW.seq)
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only: a line is never replaced');
END;

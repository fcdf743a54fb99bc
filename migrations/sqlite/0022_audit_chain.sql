-- Audit and logs (issue 15, spec 01 §2.7): the audit log becomes a hash chain. Each row gets a
-- gapless sequence number, the previous row's hash and its own (SHA-256 over a canonical
-- encoding, api/src/audit/chain.rs), assigned in the transaction of the change it records while
-- the chain head is held (SQLite: the one writer). Rows also name the patient and study they
-- concern and the outcome (Success, Denied, Failed) for the Patient Logs and the patient's own
-- access list.
ALTER TABLE audit_log ADD COLUMN seq BIGINT;
ALTER TABLE audit_log ADD COLUMN prev_hash TEXT;
ALTER TABLE audit_log ADD COLUMN row_hash TEXT;
ALTER TABLE audit_log ADD COLUMN patient_id BIGINT;
ALTER TABLE audit_log ADD COLUMN study_id BIGINT;
ALTER TABLE audit_log ADD COLUMN outcome TEXT;
-- The log screens read newest first along one of these (store/audit_logs.rs merges the walks
-- of several when a search names several actions or users); they replace the older indexes by
-- user and by category.
CREATE UNIQUE INDEX audit_log_seq ON audit_log (seq);
CREATE INDEX audit_log_patient ON audit_log (patient_id, seq);
CREATE INDEX audit_log_category_seq ON audit_log (category, seq);
CREATE INDEX audit_log_action_seq ON audit_log (action, seq);
CREATE INDEX audit_log_user_seq ON audit_log (user_id, seq);
DROP INDEX audit_log_user;
DROP INDEX audit_log_category;

-- Rows per category and action, kept in the transaction of each row: the category list
-- (GetLogType), the totals of the log screens and the actions a search names, without counting
-- a million rows.
CREATE TABLE audit_counts (
    category TEXT NOT NULL,
    action TEXT NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (category, action)
);
INSERT INTO audit_counts (category, action, n)
SELECT category, action, COUNT(*) FROM audit_log GROUP BY category, action;

-- The last link of the chain: one row, read and moved under the write lock.
CREATE TABLE audit_chain_head (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seq BIGINT NOT NULL,
    row_hash TEXT NOT NULL
);
INSERT INTO audit_chain_head (id, seq, row_hash)
VALUES (1, 0, '0000000000000000000000000000000000000000000000000000000000000000');

-- Signed checkpoints (HMAC-SHA256 with a key derived from the portal's key file, which is not in
-- the database): a row deleted or rewritten before the last checkpoint cannot be re-chained
-- without the key.
CREATE TABLE audit_checkpoints (
    seq BIGINT PRIMARY KEY,
    row_hash TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    signature TEXT NOT NULL
);

-- Append-only, enforced by the database: rows written before the chain existed may be sealed
-- once (their seq is still NULL); nothing else is ever updated or deleted.
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log WHEN OLD.seq IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER audit_checkpoints_no_update BEFORE UPDATE ON audit_checkpoints
BEGIN SELECT RAISE(ABORT, 'audit_checkpoints is append-only'); END;
CREATE TRIGGER audit_checkpoints_no_delete BEFORE DELETE ON audit_checkpoints
BEGIN SELECT RAISE(ABORT, 'audit_checkpoints is append-only'); END;

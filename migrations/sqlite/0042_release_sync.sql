-- Issue 16 release sync (spec 03 §2 release-sync): the clinical system's release tables (.dbf under
-- MagViewPath) imported into letters. One state row that every API instance reads (the progress
-- shown anywhere), and one row per imported release row: its key (table, RELID) imports once.
CREATE TABLE release_sync_state (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    running BOOLEAN NOT NULL DEFAULT FALSE,
    manually_stopped BOOLEAN NOT NULL DEFAULT FALSE,
    status TEXT NOT NULL DEFAULT '',
    -- The last run's reasons (tables and rows it could not import).
    detail TEXT NOT NULL DEFAULT '',
    -- The last check's (tables it could not read).
    scan_detail TEXT NOT NULL DEFAULT '',
    synced BIGINT NOT NULL DEFAULT 0,
    syncable BIGINT NOT NULL DEFAULT 0,
    complete BOOLEAN NOT NULL DEFAULT TRUE,
    run_seq BIGINT NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL DEFAULT 0
);
INSERT INTO release_sync_state (id) VALUES (1);

CREATE TABLE release_imports (
    table_name TEXT NOT NULL,
    release_id TEXT NOT NULL,
    letter_id BIGINT NOT NULL REFERENCES letters (id) ON DELETE CASCADE,
    source_letter_id TEXT NOT NULL DEFAULT '',
    imported_at BIGINT NOT NULL,
    PRIMARY KEY (table_name, release_id)
);
CREATE INDEX release_imports_letter ON release_imports (letter_id);

-- Error Logs (spec 01 §2.7, §3): every ERROR event of the server, written by a tracing layer
-- through a channel (api/src/error_log.rs), secrets redacted before they are stored. error_id is
-- the id the 500 dialog shows.
CREATE TABLE error_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    error_id TEXT,
    created_at BIGINT NOT NULL,
    level TEXT NOT NULL,
    message TEXT NOT NULL,
    request_url TEXT NOT NULL DEFAULT '',
    method TEXT NOT NULL DEFAULT '',
    error_class TEXT NOT NULL DEFAULT ''
);
CREATE INDEX error_log_created ON error_log (created_at);
CREATE INDEX error_log_error_id ON error_log (error_id);

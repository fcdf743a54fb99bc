-- Sessions are cached in each API process (issue 22). PostgreSQL gets NOTIFY triggers on
-- `sessions` and `users` (../postgres/0064_session_cache_notify.sql); SQLite needs none: every
-- connection of the process carries an update hook (api/src/change_feed.rs), and a cached
-- session is used for at most 2 s, the bound on seeing a write by another process.
SELECT 1;

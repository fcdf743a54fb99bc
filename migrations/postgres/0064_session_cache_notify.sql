-- Sessions are cached in each API instance (issue 22, api/src/auth/session_cache.rs, told by
-- api/src/change_feed.rs): a change that can end a session or change who it signs in, by
-- whoever (another instance, SQL by hand), tells every instance at commit on `portal_sessions`.
-- Payloads: `s:<token hash>` (that session), `u:<user id>` (that user's sessions and those they
-- impersonate in), `*` (every session). SQLite flavour: ../sqlite/0064_session_cache_notify.sql.

CREATE FUNCTION sessions_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('portal_sessions', 's:' || OLD.token_hash);
    RETURN NULL;
END $$;
CREATE TRIGGER sessions_deleted AFTER DELETE ON sessions
    FOR EACH ROW EXECUTE FUNCTION sessions_notify();
-- Every UPDATE but the idle timer's touch (last_seen_at and a later expires_at, once per session
-- every 30 s): an instance holding the older figures only goes back to the row sooner.
CREATE TRIGGER sessions_updated AFTER UPDATE ON sessions
    FOR EACH ROW
    WHEN (NEW.expires_at < OLD.expires_at
          OR (to_jsonb(NEW) - 'last_seen_at' - 'expires_at') IS DISTINCT FROM
             (to_jsonb(OLD) - 'last_seen_at' - 'expires_at'))
    EXECUTE FUNCTION sessions_notify();

-- The columns a session's user is read with (api/src/store/sessions.rs `by_token_hash`), and
-- deletion. Failed sign-in counts and lockouts do not concern a live session.
CREATE FUNCTION users_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('portal_sessions', 'u:' || OLD.id);
    RETURN NULL;
END $$;
CREATE TRIGGER users_changed AFTER UPDATE OF id, username, first_name, last_name, role, patient_id, is_active ON users
    FOR EACH ROW EXECUTE FUNCTION users_notify();
CREATE TRIGGER users_deleted AFTER DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION users_notify();

CREATE FUNCTION sessions_notify_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('portal_sessions', '*');
    RETURN NULL;
END $$;
CREATE TRIGGER sessions_truncated AFTER TRUNCATE ON sessions
    FOR EACH STATEMENT EXECUTE FUNCTION sessions_notify_all();
CREATE TRIGGER users_truncated AFTER TRUNCATE ON users
    FOR EACH STATEMENT EXECUTE FUNCTION sessions_notify_all();

-- Services management (spec 03 §3 "Service action result", §7 serviceManagement): the portal's
-- background services (api/src/services/). `desired` is what every API instance obeys (STARTED
-- or STOPPED), kept across restarts; `status` is what the last action made of it (STARTED,
-- RESTARTED, STOPPED). `seq` counts actions and `acked_seq` is the last one an instance has
-- carried out (an action waits for it). `offered_at`: the last time an instance that may run the
-- service looked in (none lately: the service is not installed). Instants in ms since the epoch.
CREATE TABLE portal_services (
    name TEXT PRIMARY KEY,
    desired TEXT NOT NULL DEFAULT 'STARTED',
    status TEXT NOT NULL DEFAULT 'STARTED',
    seq BIGINT NOT NULL DEFAULT 0,
    acked_seq BIGINT NOT NULL DEFAULT 0,
    changed_at BIGINT NOT NULL DEFAULT 0,
    offered_at BIGINT NOT NULL DEFAULT 0,
    runner TEXT,
    heartbeat_at BIGINT,
    last_run_at BIGINT,
    last_error TEXT,
    last_error_at BIGINT,
    failures BIGINT NOT NULL DEFAULT 0
);

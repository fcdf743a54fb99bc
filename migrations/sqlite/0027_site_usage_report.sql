-- Site Usage Report (spec 03 §2, §3): each event's address, operating system and browser, and
-- per-hour counts kept with every event so the summary reads a week as 168 small rows.
ALTER TABLE site_usage_events ADD COLUMN ip TEXT;
ALTER TABLE site_usage_events ADD COLUMN os TEXT;
ALTER TABLE site_usage_events ADD COLUMN browser TEXT;

-- hour: whole hours since 1970-01-01T00:00Z.
CREATE TABLE site_usage_hourly (
    event_type INTEGER NOT NULL,
    hour BIGINT NOT NULL,
    events BIGINT NOT NULL,
    PRIMARY KEY (event_type, hour)
);
INSERT INTO site_usage_hourly (event_type, hour, events)
SELECT event_type, created_at / 3600000, COUNT(*) FROM site_usage_events GROUP BY event_type, created_at / 3600000;

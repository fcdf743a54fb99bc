-- Site Usage details (issue 16): one UTC day of one event type in address order, straight from an
-- index, so a page is a range read with LIMIT/OFFSET instead of a sort of the whole day. The day
-- (whole days since 1970-01-01T00:00Z) is an expression of created_at: every row, old or new, has
-- it, and the details query names the same expression. Building the index fills it for the rows
-- already stored.
CREATE INDEX site_usage_events_type_day_ip ON site_usage_events (event_type, (created_at / 86400000), ip, id);

-- History Portal list at a million rows, fourth step (issue 6). PostgreSQL flavour: keep in step with
-- ../sqlite/0017_history_portal_name_walk.sql.
--
-- A list filtered by one status and one location and sorted by patient name (with a date range
-- on top, say) was read by gathering every row of the filter and sorting them. With the name
-- after status and location in one index, the API walks that index in name order instead
-- (Plan::Walk in api/src/routes/survey_queue.rs), passing over only that status and location's
-- rows and testing the appointment instant from the index entry. It replaces the two-column
-- (status, location_id) index of 0001, which is its prefix.

DROP INDEX survey_queue_status_location;
CREATE INDEX survey_queue_status_location_name ON survey_queue (status, location_id, sort_name, id, appt_starts_at);

-- Survey packages admin (spec 04): a replaced survey that is still assigned is kept as a retired
-- version (its survey_id gets the suffix '~<id>', which no uploaded id can have), so existing
-- assignments and logs keep the definition they were answered with. NULL: the current version.
ALTER TABLE survey_definitions ADD COLUMN retired_at BIGINT;

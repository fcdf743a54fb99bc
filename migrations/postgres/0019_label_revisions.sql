-- Dynamic Labels Management (spec 03 §2, §3): a label's title and the revision a save must name
-- (a label saved by someone else since it was read is a conflict).
ALTER TABLE label_keys ADD COLUMN title TEXT NOT NULL DEFAULT '';
ALTER TABLE label_keys ADD COLUMN revision BIGINT NOT NULL DEFAULT 1;

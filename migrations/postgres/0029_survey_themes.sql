-- Spec 04 §2 "Survey themes", §3, §4: the survey themes, exactly one selected. A shipped theme
-- (default, high-contrast, large-text) has no style of its own: wasm-core survey::theme holds it.
-- An added theme keeps a copy of the style it was based on (JSON, wasm-core ThemeStyle).
-- Same text for both engines: keep in step with ../sqlite/0029_survey_themes.sql.
CREATE TABLE survey_themes (
    name TEXT PRIMARY KEY,
    friendly_name TEXT NOT NULL,
    style TEXT,
    selected BOOLEAN NOT NULL DEFAULT FALSE,
    created_at BIGINT NOT NULL
);
INSERT INTO survey_themes (name, friendly_name, style, selected, created_at) VALUES
    ('default', 'Default', NULL, TRUE, 0),
    ('high-contrast', 'High contrast', NULL, FALSE, 0),
    ('large-text', 'Large text', NULL, FALSE, 0);

-- Issue 17 (spec 04 "Survey packages" additions). Keep in step with ../postgres/0046_survey_reports_libraries.sql.
-- Report templates: a custom template (wasm-core survey::report_template) shapes the summary PDF
-- of the survey it names; the newest one uploaded for a survey is used.
CREATE TABLE survey_report_templates (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    report_type TEXT NOT NULL,
    survey_id TEXT NOT NULL,
    result_file_name_pattern TEXT NOT NULL,
    include_signature BOOLEAN NOT NULL DEFAULT FALSE,
    file_name TEXT NOT NULL,
    template TEXT NOT NULL,
    uploaded_at BIGINT NOT NULL
);
CREATE INDEX survey_report_templates_survey ON survey_report_templates (survey_id, uploaded_at);
-- Libraries: shared answer lists (<library id> of <list>s) that survey questions name with
-- library="id" list="id"; a survey naming a library not here lists it in MissingLibs.
CREATE TABLE survey_libraries (
    library_id TEXT PRIMARY KEY,
    xml TEXT NOT NULL,
    uploaded_at BIGINT NOT NULL
);
-- The storage schema synchronisation (spec 04 CacheDetails.LastCacheDate): one row.
CREATE TABLE storage_schema_cache (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    last_cache_date BIGINT NOT NULL,
    columns_json TEXT NOT NULL
);

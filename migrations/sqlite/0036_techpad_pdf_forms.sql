-- Issue 18: the PDF forms the technologists' tablet app offers (spec 04 §2 pdf-forms, a list).
-- One row per form; the file's bytes are kept beside its facts so every instance serves it.
CREATE TABLE techpad_pdf_forms (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    file_name TEXT NOT NULL,
    pages BIGINT NOT NULL,
    size_bytes BIGINT NOT NULL,
    data BLOB NOT NULL,
    uploaded_at BIGINT NOT NULL,
    uploaded_by BIGINT REFERENCES users (id)
);

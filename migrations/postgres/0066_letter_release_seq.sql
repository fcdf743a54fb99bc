-- Issue 16 (spec 03 §3 DocumentsEssential: DisableRSeqRDateGrouping, DocumentsIsShowRSeqWithDocType):
-- a letter's release sequence (RSeq) from the clinical system, imported by release sync from the
-- optional RSEQ column. Letters of one patient with the same RDate (clinic day sent) and RSeq are
-- re-releases of one letter (wasm-core documents::shown_releases). NULL: no RSeq, never grouped.
ALTER TABLE letters ADD COLUMN release_seq BIGINT;

-- Metadata filters read typed values, not JSON: meta_forms holds the
-- typed forms of a record's top-level scalar meta values, as
-- mneme.MetaForms writes them (the rule SQLite's record_meta follows),
-- each escaped by metaFormsOf (PostgreSQL text holds no NUL). A condition
-- is an overlap with its value's forms, which the GIN index answers and
-- which a row checks without parsing its meta. Every write sets the
-- column (values in records.go); the rows written before are filled in by
-- Go after this file (backfillMetaForms: numbers are read as Go reads
-- them). It replaces the jsonb reading of 0008, which parsed meta for each
-- row a filter checked.
ALTER TABLE records ADD COLUMN meta_forms text[];
DROP INDEX records_meta;
CREATE INDEX records_meta_forms ON records USING gin (meta_forms);

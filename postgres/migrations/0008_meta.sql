-- Metadata filters (--meta KEY=VALUE): a condition is a containment test
-- on the meta object, {"tenant": "acme"}, which this index answers. meta
-- is stored as text (always a JSON object: the Engine validates it); the
-- index is on its jsonb reading, which conditions write the same way.
CREATE INDEX records_meta ON records USING gin ((meta::jsonb) jsonb_path_ops);

-- record_links indexes the typed links of records (kept as JSON text in
-- records.links) by target, so expansion finds the records that link TO
-- a hit (a source's summary) without reading every record's links, as
-- SQLite's record_links does. A trigger keeps it in the transaction of
-- every write (insert, COPY, update, delete): no write path can forget it.
-- source is the linking record's rid.
CREATE TABLE record_links (
    target text COLLATE "C" NOT NULL,
    source bigint NOT NULL,
    rel    text NOT NULL,
    PRIMARY KEY (target, source, rel)
);
CREATE INDEX record_links_source ON record_links (source);

CREATE FUNCTION record_links_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.links <> '[]' THEN
        DELETE FROM record_links WHERE source = OLD.rid;
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.links <> '[]' THEN
        INSERT INTO record_links (target, source, rel)
            SELECT l->>'target', NEW.rid, l->>'type' FROM jsonb_array_elements(NEW.links::jsonb) l
            WHERE l->>'target' IS NOT NULL
            ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER records_links_insert AFTER INSERT ON records
    FOR EACH ROW WHEN (NEW.links <> '[]') EXECUTE FUNCTION record_links_sync();
CREATE TRIGGER records_links_update AFTER UPDATE OF links ON records
    FOR EACH ROW WHEN (NEW.links IS DISTINCT FROM OLD.links) EXECUTE FUNCTION record_links_sync();
CREATE TRIGGER records_links_delete AFTER DELETE ON records
    FOR EACH ROW WHEN (OLD.links <> '[]') EXECUTE FUNCTION record_links_sync();

-- The links written before.
INSERT INTO record_links (target, source, rel)
    SELECT l->>'target', r.rid, l->>'type'
    FROM records r, jsonb_array_elements(r.links::jsonb) l
    WHERE r.links <> '[]' AND l->>'target' IS NOT NULL
    ON CONFLICT DO NOTHING;

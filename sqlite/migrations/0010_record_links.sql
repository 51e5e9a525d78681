-- record_links indexes the typed links of records (kept as JSON in
-- records.links) by target, so expansion finds the records that link TO
-- a hit (a source's summary) without reading every record's links.
-- Triggers keep it in the transaction of every write (put, patch, link,
-- import, supersede, delete, salvage): no write path can forget it.
-- source is the linking record's seq; deleting it deletes its rows.
CREATE TABLE record_links (
    target TEXT    NOT NULL,
    source INTEGER NOT NULL,
    rel    TEXT    NOT NULL,
    PRIMARY KEY (target, source, rel)
) WITHOUT ROWID;
CREATE INDEX record_links_source ON record_links (source);

CREATE TRIGGER record_links_insert AFTER INSERT ON records WHEN new.links != '[]' BEGIN
    INSERT OR IGNORE INTO record_links (target, source, rel)
        SELECT json_extract(l.value, '$.target'), new.seq, json_extract(l.value, '$.type')
        FROM json_each(new.links) l WHERE json_extract(l.value, '$.target') IS NOT NULL;
END;
CREATE TRIGGER record_links_update AFTER UPDATE OF links ON records WHEN new.links IS NOT old.links BEGIN
    DELETE FROM record_links WHERE source = old.seq;
    INSERT OR IGNORE INTO record_links (target, source, rel)
        SELECT json_extract(l.value, '$.target'), new.seq, json_extract(l.value, '$.type')
        FROM json_each(new.links) l WHERE json_extract(l.value, '$.target') IS NOT NULL;
END;
CREATE TRIGGER record_links_delete AFTER DELETE ON records WHEN old.links != '[]' BEGIN
    DELETE FROM record_links WHERE source = old.seq;
END;

-- The links written before.
INSERT OR IGNORE INTO record_links (target, source, rel)
    SELECT json_extract(l.value, '$.target'), r.seq, json_extract(l.value, '$.type')
    FROM records r, json_each(r.links) l
    WHERE r.links != '[]' AND json_extract(l.value, '$.target') IS NOT NULL;

-- Metadata filters (--meta KEY=VALUE) for List and what goes through it
-- (list, forget, prune, export): every top-level scalar of a record's meta,
-- typed as mneme.MetaForms types it (s: string, n: number, b: boolean), so
-- a condition is an index seek. value has no affinity: a string '3' and a
-- number 3 stay apart, 3 and 3.0 compare equal. Triggers keep it with the
-- records; recall filters in the BM25 index, which holds the same forms.
CREATE TABLE record_meta (
    seq   INTEGER NOT NULL,
    key   TEXT    NOT NULL,
    kind  TEXT    NOT NULL,
    value
);
CREATE INDEX record_meta_value ON record_meta (key, kind, value, seq);
CREATE INDEX record_meta_seq ON record_meta (seq);

CREATE TRIGGER record_meta_insert AFTER INSERT ON records WHEN new.meta IS NOT NULL AND json_valid(new.meta) BEGIN
    INSERT INTO record_meta (seq, key, kind, value)
        SELECT new.seq, j.key, CASE j.type WHEN 'text' THEN 's' WHEN 'integer' THEN 'n' WHEN 'real' THEN 'n' ELSE 'b' END,
            CASE j.type WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' ELSE j.atom END
        FROM json_each(new.meta) j
        WHERE j.type IN ('text', 'integer', 'real', 'true', 'false') AND instr(j.key, char(0)) = 0;
END;
CREATE TRIGGER record_meta_update AFTER UPDATE OF meta ON records BEGIN
    DELETE FROM record_meta WHERE seq = old.seq;
    INSERT INTO record_meta (seq, key, kind, value)
        SELECT new.seq, j.key, CASE j.type WHEN 'text' THEN 's' WHEN 'integer' THEN 'n' WHEN 'real' THEN 'n' ELSE 'b' END,
            CASE j.type WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' ELSE j.atom END
        FROM json_each(CASE WHEN new.meta IS NOT NULL AND json_valid(new.meta) THEN new.meta ELSE '{}' END) j
        WHERE j.type IN ('text', 'integer', 'real', 'true', 'false') AND instr(j.key, char(0)) = 0;
END;
CREATE TRIGGER record_meta_delete AFTER DELETE ON records BEGIN
    DELETE FROM record_meta WHERE seq = old.seq;
END;

INSERT INTO record_meta (seq, key, kind, value)
    SELECT r.seq, j.key, CASE j.type WHEN 'text' THEN 's' WHEN 'integer' THEN 'n' WHEN 'real' THEN 'n' ELSE 'b' END,
        CASE j.type WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' ELSE j.atom END
    FROM records r, json_each(r.meta) j
    WHERE r.meta IS NOT NULL AND json_valid(r.meta)
        AND j.type IN ('text', 'integer', 'real', 'true', 'false') AND instr(j.key, char(0)) = 0;

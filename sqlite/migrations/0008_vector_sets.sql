-- Vector sets (mneme reindex --embedder): a new embedder's vectors are
-- built beside the home's while recall keeps using the home's. Only the
-- home embedder's vectors feed the vector index and the result cache's
-- generations, so a build beside them changes neither.
DROP TRIGGER vectors_changed_insert;
DROP TRIGGER vectors_changed_update;
DROP TRIGGER vectors_changed_delete;
DROP TRIGGER cache_gen_vectors_insert;
DROP TRIGGER cache_gen_vectors_update;
DROP TRIGGER cache_gen_vectors_delete;
CREATE VIEW home_set AS
    SELECT json_extract(value, '$.provider') || '/' || json_extract(value, '$.model') AS embedder,
        json_extract(value, '$.version') AS version, json_extract(value, '$.dim') AS dim
    FROM meta WHERE key = 'embedder';
CREATE TRIGGER vectors_changed_insert AFTER INSERT ON vectors
    WHEN EXISTS (SELECT 1 FROM home_set h WHERE h.embedder = new.embedder AND h.version = new.version AND h.dim = new.dim) BEGIN
    INSERT INTO changes (rec, lane) VALUES (new.seq, 1);
    INSERT INTO cache_generations (project, gen) SELECT project, 1 FROM records WHERE seq = new.seq
        ON CONFLICT (project) DO UPDATE SET gen = gen + 1;
END;
CREATE TRIGGER vectors_changed_update AFTER UPDATE ON vectors
    WHEN EXISTS (SELECT 1 FROM home_set h WHERE h.embedder = new.embedder AND h.version = new.version AND h.dim = new.dim) BEGIN
    INSERT INTO changes (rec, lane) VALUES (new.seq, 1);
    INSERT INTO cache_generations (project, gen) SELECT project, 1 FROM records WHERE seq = new.seq
        ON CONFLICT (project) DO UPDATE SET gen = gen + 1;
END;
CREATE TRIGGER vectors_changed_delete AFTER DELETE ON vectors
    WHEN EXISTS (SELECT 1 FROM home_set h WHERE h.embedder = old.embedder AND h.version = old.version AND h.dim = old.dim) BEGIN
    INSERT INTO changes (rec, lane) VALUES (old.seq, 1);
    INSERT INTO cache_generations (project, gen) SELECT project, 1 FROM records WHERE seq = old.seq
        ON CONFLICT (project) DO UPDATE SET gen = gen + 1;
END;

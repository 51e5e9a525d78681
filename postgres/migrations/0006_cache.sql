-- The result cache (package cache): canonical JSON payloads under a
-- deterministic key per kind. Times are Unix nanoseconds (UTC).
CREATE TABLE cache_entries (
    kind           text COLLATE "C" NOT NULL,
    key            text COLLATE "C" NOT NULL, -- hex sha256 of the request, its scope and the generations it read
    payload        bytea  NOT NULL,           -- canonical JSON
    payload_sha256 text   NOT NULL,
    schema_version integer NOT NULL,
    created_at     bigint NOT NULL,
    expires_at     bigint,                    -- NULL: until a write invalidates it
    PRIMARY KEY (kind, key)
);
CREATE INDEX cache_entries_expires ON cache_entries (expires_at) WHERE expires_at IS NOT NULL;

-- Each project's write generation, the sum of its shards: every change of
-- a record or a vector raises it in the write's own transaction, so a
-- result cached by any process under an older generation is never read
-- again. Each transaction raises the shard it holds (lex_shard), so
-- concurrent writers of one project never wait for each other here.
CREATE TABLE cache_generations (
    project text COLLATE "C" NOT NULL,
    shard   integer NOT NULL,
    gen     bigint  NOT NULL,
    PRIMARY KEY (project, shard)
);
CREATE FUNCTION cache_gen_bump(projects text[]) RETURNS void LANGUAGE sql AS $$
    INSERT INTO cache_generations (project, shard, gen)
        SELECT DISTINCT p, lex_shard(), 1 FROM unnest(projects) p
        ON CONFLICT (project, shard) DO UPDATE SET gen = cache_generations.gen + 1;
$$;
CREATE FUNCTION cache_gen_records() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM cache_gen_bump(ARRAY(SELECT DISTINCT project FROM new_rows));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM cache_gen_bump(ARRAY(SELECT DISTINCT project FROM old_rows));
    ELSE
        PERFORM cache_gen_bump(ARRAY(SELECT project FROM new_rows UNION SELECT project FROM old_rows));
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER cache_gen_records_insert AFTER INSERT ON records
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cache_gen_records();
CREATE TRIGGER cache_gen_records_update AFTER UPDATE ON records
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cache_gen_records();
CREATE TRIGGER cache_gen_records_delete AFTER DELETE ON records
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cache_gen_records();

-- Vectors change recall too: their tables (one per embedder) raise the
-- generation of their records' projects.
CREATE FUNCTION cache_gen_vectors() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM cache_gen_bump(ARRAY(SELECT DISTINCT r.project FROM old_rows o JOIN records r ON r.rid = o.rid));
    ELSE
        PERFORM cache_gen_bump(ARRAY(SELECT DISTINCT r.project FROM new_rows n JOIN records r ON r.rid = n.rid));
    END IF;
    RETURN NULL;
END $$;
CREATE FUNCTION cache_gen_vector_triggers(t regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('CREATE TRIGGER cache_gen_vectors_insert AFTER INSERT ON %s REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cache_gen_vectors()', t);
    EXECUTE format('CREATE TRIGGER cache_gen_vectors_update AFTER UPDATE ON %s REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cache_gen_vectors()', t);
    EXECUTE format('CREATE TRIGGER cache_gen_vectors_delete AFTER DELETE ON %s REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cache_gen_vectors()', t);
END $$;
-- count_vectors is what SetHomeEmbedder calls for each new vector table:
-- it now adds the generation triggers too.
CREATE OR REPLACE FUNCTION count_vectors(t regclass) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    rows bigint;
BEGIN
    EXECUTE format('CREATE TRIGGER vectors_count_insert AFTER INSERT ON %s REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION vectors_count()', t);
    EXECUTE format('CREATE TRIGGER vectors_count_delete AFTER DELETE ON %s REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION vectors_count()', t);
    PERFORM cache_gen_vector_triggers(t);
    EXECUTE format('SELECT count(*) FROM %s', t) INTO rows;
    UPDATE lex_stats SET vecs = CASE shard WHEN 0 THEN rows ELSE 0 END;
END $$;
DO $$
DECLARE
    t regclass;
BEGIN
    FOR t IN SELECT c.oid FROM pg_class c WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
        AND c.relkind = 'r' AND c.relname LIKE 'vectors\_%' LOOP
        PERFORM cache_gen_vector_triggers(t);
    END LOOP;
END $$;

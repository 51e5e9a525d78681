-- The HNSW index of each vector table walks half-precision copies of the
-- vectors (pgvector's halfvec, 0.7.0 and later): its nodes take half the
-- pages (112 MB instead of 195 MB at 100,000 records of 384 dimensions),
-- so a filtered walk, which visits thousands of nodes, reads fewer of them
-- from outside shared buffers. The table keeps the full vectors and the
-- search scores its hits with them (vectors.go's hnswIndexSQL and
-- search.go's vectorLane order by the same expression). Rebuilding an
-- index takes about 30 seconds per 100,000 vectors.
DO $$
DECLARE
    t record;
BEGIN
    IF (SELECT string_to_array(extversion, '.')::int[] < '{0,7}' FROM pg_extension WHERE extname = 'vector') THEN
        RAISE EXCEPTION 'pgvector % is too old for this schema (halfvec needs 0.7.0 or later): install a newer pgvector on the server, then run ALTER EXTENSION vector UPDATE; in the database',
            (SELECT extversion FROM pg_extension WHERE extname = 'vector');
    END IF;
    PERFORM set_config('maintenance_work_mem', '1GB', true);
    FOR t IN SELECT c.relname, a.atttypmod AS dim FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'vec'
            WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
            AND c.relkind = 'r' AND c.relname LIKE 'vectors\_%' LOOP
        EXECUTE format('DROP INDEX IF EXISTS %I', t.relname || '_hnsw');
        EXECUTE format('CREATE INDEX %I ON %I USING hnsw ((vec::halfvec(%s)) halfvec_cosine_ops)', t.relname || '_hnsw', t.relname, t.dim);
    END LOOP;
END $$;

-- Search and bulk loads at 100,000 records and more (search.go, bm25.go
-- and topk.go use this; bulkload.go rebuilds it).
--
-- Each posting carries its record's weighted length (dl), and the indexes
-- cover (tf, dl): BM25 scores postings from the indexes alone, without
-- visiting the records. A record's length is the sum of its
-- postings' tf, so records.doc_len goes. The foreign key goes too (checking
-- it for every posting was most of a bulk load): the writer deletes a
-- record's postings itself.
ALTER TABLE postings ADD COLUMN dl real NOT NULL DEFAULT 0;
UPDATE postings p SET dl = r.doc_len FROM records r WHERE r.rid = p.rid;
ALTER TABLE postings DROP CONSTRAINT postings_rid_fkey;
ALTER TABLE postings DROP CONSTRAINT postings_pkey, ADD PRIMARY KEY (term, rid) INCLUDE (tf, dl);
-- Each term's postings best first (topk.go): by BM25's saturation with
-- k1 = 1.2, b = 0.75 and a reference mean length of 40 (the expression is
-- impactSQL there).
CREATE INDEX postings_impact ON postings (term, (tf / (tf + 0.3::real + 0.0225::real * dl)) DESC) INCLUDE (rid, tf, dl);

DROP TRIGGER records_lex_stats_insert ON records;
DROP TRIGGER records_lex_stats_delete ON records;
DROP TRIGGER records_lex_stats_update ON records;
DROP FUNCTION lex_stats_insert();
DROP FUNCTION lex_stats_delete();
DROP FUNCTION lex_stats_update();
ALTER TABLE records DROP COLUMN doc_len;

-- lex_shard returns the shard of lex_stats and lex_df this transaction
-- writes: one no concurrent transaction holds (a transaction-scoped
-- advisory lock claims it), so writers never wait for each other's counts
-- nor deadlock on them.
CREATE FUNCTION lex_shard() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    s integer := nullif(current_setting('mneme.lex_shard', true), '')::integer;
    got boolean := false;
BEGIN
    IF s IS NOT NULL THEN
        RETURN s;
    END IF;
    FOR i IN 0..15 LOOP
        s := (pg_backend_pid() + i) % 16;
        got := pg_try_advisory_xact_lock(1835363693, s);
        EXIT WHEN got;
    END LOOP;
    IF NOT got THEN -- more than 16 writers: wait for one
        s := pg_backend_pid() % 16;
        PERFORM pg_advisory_xact_lock(1835363693, s);
    END IF;
    PERFORM set_config('mneme.lex_shard', s::text, true);
    RETURN s;
END $$;

-- lex_stats: n counts the records, plain the records that may have a
-- vector (not secret), total sums the postings' tf (the records' lengths),
-- vecs counts the home embedder's vectors. plain - vecs is how many
-- records lack a vector: recall counts them under its filter only when it
-- is not 0.
ALTER TABLE lex_stats ADD COLUMN plain bigint NOT NULL DEFAULT 0, ADD COLUMN vecs bigint NOT NULL DEFAULT 0;
UPDATE lex_stats SET n = 0, total = 0;
UPDATE lex_stats SET n = (SELECT count(*) FROM records),
    plain = (SELECT count(*) FROM records WHERE sensitivity != 'secret'),
    total = (SELECT coalesce(sum(tf), 0) FROM postings) WHERE shard = 0;

CREATE FUNCTION records_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    dn bigint := 0;
    dp bigint := 0;
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        SELECT dn + count(*), dp + count(*) FILTER (WHERE sensitivity != 'secret') INTO dn, dp FROM new_rows;
    END IF;
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        SELECT dn - count(*), dp - count(*) FILTER (WHERE sensitivity != 'secret') INTO dn, dp FROM old_rows;
    END IF;
    IF dn != 0 OR dp != 0 THEN
        UPDATE lex_stats SET n = n + dn, plain = plain + dp WHERE shard = lex_shard();
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER records_count_insert AFTER INSERT ON records
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION records_count();
CREATE TRIGGER records_count_delete AFTER DELETE ON records
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION records_count();
CREATE TRIGGER records_count_update AFTER UPDATE ON records
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION records_count();

-- lex_df: how many records hold each term (BM25's document frequency),
-- summed over the shards, so a query reads its terms' idf without counting
-- postings; and the term's largest tf and smallest dl, which bound what
-- one of its postings can add to a score (deletes leave them: a bound
-- still).
CREATE TABLE lex_df (
    term  text COLLATE "C" NOT NULL,
    shard integer NOT NULL,
    df    bigint NOT NULL,
    maxtf real NOT NULL,
    mindl real NOT NULL,
    PRIMARY KEY (term, shard)
);
INSERT INTO lex_df (term, shard, df, maxtf, mindl) SELECT term, 0, count(*), max(tf), min(dl) FROM postings GROUP BY term;

-- postings_count keeps lex_df and lex_stats.total (except in a bulk load,
-- which counts once at its end: bulkload.go). The shard is this
-- transaction's alone, so a missing row is inserted without a conflict
-- check (ON CONFLICT's speculative insertion is many times slower).
CREATE FUNCTION postings_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    s integer;
BEGIN
    IF current_setting('mneme.bulk', true) = 'on' THEN -- a bulk load counts at its end
        RETURN NULL;
    END IF;
    s := lex_shard();
    IF TG_OP = 'INSERT' THEN
        WITH a AS (SELECT term, count(*) AS n, max(tf) AS maxtf, min(dl) AS mindl FROM new_rows GROUP BY term),
        u AS (UPDATE lex_df d SET df = d.df + a.n, maxtf = greatest(d.maxtf, a.maxtf), mindl = least(d.mindl, a.mindl)
            FROM a WHERE d.term = a.term AND d.shard = s RETURNING d.term)
        INSERT INTO lex_df (term, shard, df, maxtf, mindl) SELECT a.term, s, a.n, a.maxtf, a.mindl FROM a
            WHERE a.term NOT IN (SELECT term FROM u);
        UPDATE lex_stats SET total = total + t.sum FROM (SELECT sum(tf) AS sum FROM new_rows) t WHERE shard = s AND t.sum IS NOT NULL;
    ELSE
        WITH a AS (SELECT term, count(*) AS n FROM old_rows GROUP BY term),
        u AS (UPDATE lex_df d SET df = d.df - a.n FROM a WHERE d.term = a.term AND d.shard = s RETURNING d.term)
        INSERT INTO lex_df (term, shard, df, maxtf, mindl) SELECT a.term, s, -a.n, 0, 'Infinity' FROM a
            WHERE a.term NOT IN (SELECT term FROM u);
        UPDATE lex_stats SET total = total - t.sum FROM (SELECT sum(tf) AS sum FROM old_rows) t WHERE shard = s AND t.sum IS NOT NULL;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER postings_count_insert AFTER INSERT ON postings
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION postings_count();
CREATE TRIGGER postings_count_delete AFTER DELETE ON postings
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION postings_count();

-- count_vectors makes triggers keep lex_stats.vecs for the home embedder's
-- vector table t: SetHomeEmbedder calls it for each new table.
CREATE FUNCTION vectors_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE lex_stats SET vecs = vecs + (SELECT count(*) FROM new_rows) WHERE shard = lex_shard();
    ELSE
        UPDATE lex_stats SET vecs = vecs - (SELECT count(*) FROM old_rows) WHERE shard = lex_shard();
    END IF;
    RETURN NULL;
END $$;
CREATE FUNCTION count_vectors(t regclass) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    rows bigint;
BEGIN
    EXECUTE format('CREATE TRIGGER vectors_count_insert AFTER INSERT ON %s REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION vectors_count()', t);
    EXECUTE format('CREATE TRIGGER vectors_count_delete AFTER DELETE ON %s REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION vectors_count()', t);
    EXECUTE format('SELECT count(*) FROM %s', t) INTO rows;
    UPDATE lex_stats SET vecs = CASE shard WHEN 0 THEN rows ELSE 0 END;
END $$;
DO $$
DECLARE
    t regclass;
BEGIN
    FOR t IN SELECT c.oid FROM pg_class c WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
        AND c.relkind = 'r' AND c.relname LIKE 'vectors\_%' LOOP
        PERFORM count_vectors(t);
    END LOOP;
END $$;

-- BM25 needs the number of records and their mean weighted length on every
-- query. Counting them is a scan of the table (milliseconds at 100,000), so
-- statement triggers keep the sums here instead, in 16 shards chosen by
-- the writing backend, so concurrent writers seldom wait for each other.
CREATE TABLE lex_stats (
    shard integer PRIMARY KEY,
    n     bigint NOT NULL DEFAULT 0,
    total float8 NOT NULL DEFAULT 0
);
INSERT INTO lex_stats (shard) SELECT g FROM generate_series(0, 15) AS g;
UPDATE lex_stats SET n = (SELECT count(*) FROM records), total = (SELECT coalesce(sum(doc_len), 0) FROM records) WHERE shard = 0;

CREATE FUNCTION lex_stats_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE lex_stats s SET n = s.n + d.n, total = s.total + d.t
    FROM (SELECT count(*) AS n, coalesce(sum(doc_len), 0) AS t FROM new_rows) d
    WHERE s.shard = pg_backend_pid() % 16 AND d.n > 0;
    RETURN NULL;
END $$;
CREATE FUNCTION lex_stats_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE lex_stats s SET n = s.n - d.n, total = s.total - d.t
    FROM (SELECT count(*) AS n, coalesce(sum(doc_len), 0) AS t FROM old_rows) d
    WHERE s.shard = pg_backend_pid() % 16 AND d.n > 0;
    RETURN NULL;
END $$;
CREATE FUNCTION lex_stats_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE lex_stats s SET total = s.total + d.t
    FROM (SELECT (SELECT coalesce(sum(doc_len), 0) FROM new_rows) - (SELECT coalesce(sum(doc_len), 0) FROM old_rows) AS t) d
    WHERE s.shard = pg_backend_pid() % 16 AND d.t != 0;
    RETURN NULL;
END $$;
CREATE TRIGGER records_lex_stats_insert AFTER INSERT ON records
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lex_stats_insert();
CREATE TRIGGER records_lex_stats_delete AFTER DELETE ON records
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lex_stats_delete();
CREATE TRIGGER records_lex_stats_update AFTER UPDATE ON records
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lex_stats_update();

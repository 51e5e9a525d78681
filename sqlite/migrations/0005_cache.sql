-- The result cache (package cache): canonical JSON payloads under a
-- deterministic key per kind. Times are Unix nanoseconds (UTC).
CREATE TABLE cache_entries (
    kind           TEXT    NOT NULL,
    key            TEXT    NOT NULL, -- hex sha256 of the request, its scope and the generations it read
    payload        BLOB    NOT NULL, -- canonical JSON
    payload_sha256 TEXT    NOT NULL,
    schema_version INTEGER NOT NULL,
    created_at     INTEGER NOT NULL,
    expires_at     INTEGER,          -- NULL: until a write invalidates it
    PRIMARY KEY (kind, key)
);
CREATE INDEX cache_entries_expires ON cache_entries (expires_at) WHERE expires_at IS NOT NULL;

-- Each project's write generation: every change of a record or a vector
-- raises its project's in the write's own transaction, so a result cached
-- by any process under an older generation is never read again.
CREATE TABLE cache_generations (
    project TEXT    PRIMARY KEY,
    gen     INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TRIGGER cache_gen_records_insert AFTER INSERT ON records BEGIN
    INSERT INTO cache_generations (project, gen) VALUES (new.project, 1)
        ON CONFLICT (project) DO UPDATE SET gen = gen + 1;
END;
CREATE TRIGGER cache_gen_records_update AFTER UPDATE ON records BEGIN
    INSERT INTO cache_generations (project, gen) VALUES (old.project, 1)
        ON CONFLICT (project) DO UPDATE SET gen = gen + 1;
    INSERT INTO cache_generations (project, gen) SELECT new.project, 1 WHERE new.project != old.project
        ON CONFLICT (project) DO UPDATE SET gen = gen + 1;
END;
CREATE TRIGGER cache_gen_records_delete AFTER DELETE ON records BEGIN
    INSERT INTO cache_generations (project, gen) VALUES (old.project, 1)
        ON CONFLICT (project) DO UPDATE SET gen = gen + 1;
END;
CREATE TRIGGER cache_gen_vectors_insert AFTER INSERT ON vectors BEGIN
    INSERT INTO cache_generations (project, gen) SELECT project, 1 FROM records WHERE seq = new.seq
        ON CONFLICT (project) DO UPDATE SET gen = gen + 1;
END;
CREATE TRIGGER cache_gen_vectors_update AFTER UPDATE ON vectors BEGIN
    INSERT INTO cache_generations (project, gen) SELECT project, 1 FROM records WHERE seq = new.seq
        ON CONFLICT (project) DO UPDATE SET gen = gen + 1;
END;
CREATE TRIGGER cache_gen_vectors_delete AFTER DELETE ON vectors BEGIN
    INSERT INTO cache_generations (project, gen) SELECT project, 1 FROM records WHERE seq = old.seq
        ON CONFLICT (project) DO UPDATE SET gen = gen + 1;
END;

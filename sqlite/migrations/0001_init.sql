-- Records: one row per memory. Times are Unix nanoseconds (UTC).
CREATE TABLE records (
    seq               INTEGER PRIMARY KEY,
    id                TEXT    NOT NULL UNIQUE,
    project           TEXT    NOT NULL,
    type              TEXT    NOT NULL,
    kind              TEXT    NOT NULL DEFAULT '',
    title             TEXT    NOT NULL DEFAULT '',
    text              TEXT    NOT NULL,
    tags              TEXT    NOT NULL DEFAULT '[]',
    source_uri        TEXT,
    source_line_start INTEGER,
    source_line_end   INTEGER,
    source_parent     TEXT,
    source_chunk      INTEGER,
    occurred_at       INTEGER,
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL,
    expires_at        INTEGER,
    event_at          INTEGER NOT NULL, -- occurred_at, else created_at: what time filters use
    key               TEXT    NOT NULL DEFAULT '',
    status            TEXT    NOT NULL,
    provenance        TEXT    NOT NULL DEFAULT '',
    sensitivity       TEXT    NOT NULL,
    session_id        TEXT    NOT NULL DEFAULT '',
    run_id            TEXT    NOT NULL DEFAULT '',
    speaker           TEXT    NOT NULL DEFAULT '',
    links             TEXT    NOT NULL DEFAULT '[]',
    content_hash      TEXT    NOT NULL,
    meta              TEXT
);
CREATE INDEX records_project_hash ON records (project, content_hash);
CREATE INDEX records_project_key ON records (project, key) WHERE key != '';
CREATE INDEX records_project_id ON records (project, id);
CREATE INDEX records_event ON records (event_at);
CREATE INDEX records_created ON records (created_at);
CREATE INDEX records_expires ON records (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX records_parent ON records (source_parent) WHERE source_parent IS NOT NULL;

-- Tags, one row per (tag, record), for any-of and all-of filters.
CREATE TABLE record_tags (
    tag TEXT    NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (tag, seq)
) WITHOUT ROWID;
CREATE INDEX record_tags_seq ON record_tags (seq);

-- Every insert, update and delete of a record appends its seq here. The
-- BM25 index (a derived file beside the database) remembers the last change
-- it has applied and catches up from this log, so it never disagrees with
-- the table, whichever process wrote.
CREATE TABLE changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    rec INTEGER NOT NULL
);
CREATE TRIGGER records_changed_insert AFTER INSERT ON records BEGIN
    INSERT INTO changes (rec) VALUES (new.seq);
END;
CREATE TRIGGER records_changed_update AFTER UPDATE ON records BEGIN
    INSERT INTO changes (rec) VALUES (new.seq);
END;
CREATE TRIGGER records_changed_delete AFTER DELETE ON records BEGIN
    INSERT INTO changes (rec) VALUES (old.seq);
END;

-- Facts about this database; db_id tells derived files which database they
-- were built from.
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
INSERT INTO meta (key, value) VALUES ('db_id', lower(hex(randomblob(16))));

-- Ingested documents: their chunks are records whose source_parent is the id.
CREATE TABLE documents (
    id         TEXT    PRIMARY KEY,
    project    TEXT    NOT NULL,
    uri        TEXT    NOT NULL,
    hash       TEXT    NOT NULL,
    chunks     INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (project, uri)
);

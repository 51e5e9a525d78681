-- Vectors, one per (record, embedder, version): two models never mix.
-- vec holds dim little-endian float32 values.
CREATE TABLE vectors (
    seq      INTEGER NOT NULL,
    embedder TEXT    NOT NULL,
    version  TEXT    NOT NULL,
    dim      INTEGER NOT NULL,
    vec      BLOB    NOT NULL,
    PRIMARY KEY (seq, embedder, version)
) WITHOUT ROWID;
CREATE INDEX vectors_embedder ON vectors (embedder, version);

-- A vector goes with its record, and with the text it was computed from; a
-- record that becomes secret is never embedded.
CREATE TRIGGER vectors_record_deleted AFTER DELETE ON records BEGIN
    DELETE FROM vectors WHERE seq = old.seq;
END;
CREATE TRIGGER vectors_text_changed AFTER UPDATE OF text, sensitivity ON records
    WHEN old.text != new.text OR new.sensitivity = 'secret' BEGIN
    DELETE FROM vectors WHERE seq = old.seq;
END;

-- Embeddings by text, so re-ingesting and repeated texts are not recomputed.
CREATE TABLE embedding_cache (
    embedder  TEXT NOT NULL,
    version   TEXT NOT NULL,
    text_hash TEXT NOT NULL, -- hex sha256 of the exact text
    vec       BLOB NOT NULL,
    PRIMARY KEY (embedder, version, text_hash)
) WITHOUT ROWID;

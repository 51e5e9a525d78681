-- Vectors and cached embeddings become ordinary rowid tables: in a WITHOUT
-- ROWID table a 1.5 KB vector row cannot stay on its 4 KB page, so each
-- took an overflow page of its own, two thirds empty (488 MB for 154 MB of
-- vectors at 100,000 records).
CREATE TABLE vectors_copy AS SELECT seq, embedder, version, dim, vec FROM vectors;
DROP TABLE vectors;
CREATE TABLE vectors (
    seq      INTEGER NOT NULL,
    embedder TEXT    NOT NULL,
    version  TEXT    NOT NULL,
    dim      INTEGER NOT NULL,
    vec      BLOB    NOT NULL
);
INSERT INTO vectors SELECT * FROM vectors_copy;
DROP TABLE vectors_copy;
CREATE UNIQUE INDEX vectors_key ON vectors (seq, embedder, version);
CREATE INDEX vectors_embedder ON vectors (embedder, version);

CREATE TABLE embedding_cache_copy AS SELECT embedder, version, text_hash, vec FROM embedding_cache;
DROP TABLE embedding_cache;
CREATE TABLE embedding_cache (
    embedder  TEXT NOT NULL,
    version   TEXT NOT NULL,
    text_hash TEXT NOT NULL, -- hex sha256 of the embedded input
    vec       BLOB NOT NULL
);
INSERT INTO embedding_cache SELECT * FROM embedding_cache_copy;
DROP TABLE embedding_cache_copy;
CREATE UNIQUE INDEX embedding_cache_key ON embedding_cache (embedder, version, text_hash);

-- The vector index (a derived file like the BM25 one) follows vector
-- writes through the same change log: lane 0 is record changes, lane 1
-- vector changes, so each index reads only what concerns it.
ALTER TABLE changes ADD COLUMN lane INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER vectors_changed_insert AFTER INSERT ON vectors BEGIN
    INSERT INTO changes (rec, lane) VALUES (new.seq, 1);
END;
CREATE TRIGGER vectors_changed_update AFTER UPDATE ON vectors BEGIN
    INSERT INTO changes (rec, lane) VALUES (new.seq, 1);
END;
CREATE TRIGGER vectors_changed_delete AFTER DELETE ON vectors BEGIN
    INSERT INTO changes (rec, lane) VALUES (old.seq, 1);
END;

-- Recall's expansion reads the turns around a hit in its session.
CREATE INDEX records_session ON records (project, session_id, event_at) WHERE session_id != '';
CREATE INDEX records_parent_chunk ON records (source_parent, source_chunk) WHERE source_parent IS NOT NULL;

-- The BM25 index reads a conversation turn with the turns beside it (a
-- reply's words say what the question was about), so a turn's change is
-- also a change of its neighbours.
CREATE TRIGGER records_neighbours_insert AFTER INSERT ON records WHEN new.session_id != '' BEGIN
    INSERT INTO changes (rec) SELECT p.seq FROM records p
        WHERE p.project = new.project AND p.session_id = new.session_id AND p.seq != new.seq
        AND (p.event_at < new.event_at OR (p.event_at = new.event_at AND p.seq < new.seq))
        ORDER BY p.event_at DESC, p.seq DESC LIMIT 1;
    INSERT INTO changes (rec) SELECT p.seq FROM records p
        WHERE p.project = new.project AND p.session_id = new.session_id AND p.seq != new.seq
        AND (p.event_at > new.event_at OR (p.event_at = new.event_at AND p.seq > new.seq))
        ORDER BY p.event_at ASC, p.seq ASC LIMIT 1;
END;
CREATE TRIGGER records_neighbours_update AFTER UPDATE OF text, sensitivity, session_id, event_at ON records
    WHEN old.session_id != '' OR new.session_id != '' BEGIN
    INSERT INTO changes (rec) SELECT p.seq FROM records p
        WHERE p.project = old.project AND p.session_id = old.session_id AND p.seq != old.seq
        AND (p.event_at < old.event_at OR (p.event_at = old.event_at AND p.seq < old.seq))
        ORDER BY p.event_at DESC, p.seq DESC LIMIT 1;
    INSERT INTO changes (rec) SELECT p.seq FROM records p
        WHERE p.project = old.project AND p.session_id = old.session_id AND p.seq != old.seq
        AND (p.event_at > old.event_at OR (p.event_at = old.event_at AND p.seq > old.seq))
        ORDER BY p.event_at ASC, p.seq ASC LIMIT 1;
    INSERT INTO changes (rec) SELECT p.seq FROM records p
        WHERE p.project = new.project AND p.session_id = new.session_id AND p.seq != new.seq
        AND (p.event_at < new.event_at OR (p.event_at = new.event_at AND p.seq < new.seq))
        ORDER BY p.event_at DESC, p.seq DESC LIMIT 1;
    INSERT INTO changes (rec) SELECT p.seq FROM records p
        WHERE p.project = new.project AND p.session_id = new.session_id AND p.seq != new.seq
        AND (p.event_at > new.event_at OR (p.event_at = new.event_at AND p.seq > new.seq))
        ORDER BY p.event_at ASC, p.seq ASC LIMIT 1;
END;
CREATE TRIGGER records_neighbours_delete AFTER DELETE ON records WHEN old.session_id != '' BEGIN
    INSERT INTO changes (rec) SELECT p.seq FROM records p
        WHERE p.project = old.project AND p.session_id = old.session_id AND p.seq != old.seq
        AND (p.event_at < old.event_at OR (p.event_at = old.event_at AND p.seq < old.seq))
        ORDER BY p.event_at DESC, p.seq DESC LIMIT 1;
    INSERT INTO changes (rec) SELECT p.seq FROM records p
        WHERE p.project = old.project AND p.session_id = old.session_id AND p.seq != old.seq
        AND (p.event_at > old.event_at OR (p.event_at = old.event_at AND p.seq > old.seq))
        ORDER BY p.event_at ASC, p.seq ASC LIMIT 1;
END;

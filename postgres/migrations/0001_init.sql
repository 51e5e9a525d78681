-- Records: one row per memory. Times are Unix nanoseconds (UTC), like the
-- SQLite store's, so they round-trip exactly. Identifiers compare bytewise
-- (COLLATE "C") whatever the database's locale: ids sort by time.
CREATE TABLE records (
    rid               bigserial PRIMARY KEY,
    id                text COLLATE "C" NOT NULL UNIQUE,
    project           text COLLATE "C" NOT NULL,
    type              text NOT NULL,
    kind              text NOT NULL DEFAULT '',
    title             text NOT NULL DEFAULT '',
    text              text NOT NULL,
    tags              text[],
    source_uri        text,
    source_line_start integer,
    source_line_end   integer,
    source_parent     text COLLATE "C",
    source_chunk      integer,
    occurred_at       bigint,
    created_at        bigint NOT NULL,
    updated_at        bigint NOT NULL,
    expires_at        bigint,
    event_at          bigint NOT NULL, -- occurred_at, else created_at: what time filters use
    key               text COLLATE "C" NOT NULL DEFAULT '',
    status            text NOT NULL,
    provenance        text NOT NULL DEFAULT '',
    sensitivity       text NOT NULL,
    session_id        text COLLATE "C" NOT NULL DEFAULT '',
    run_id            text NOT NULL DEFAULT '',
    speaker           text NOT NULL DEFAULT '',
    links             text NOT NULL DEFAULT '[]',
    content_hash      text COLLATE "C" NOT NULL,
    meta              text,
    doc_len           real NOT NULL DEFAULT 0 -- weighted BM25 length
);
CREATE INDEX records_project_hash ON records (project, content_hash);
CREATE INDEX records_project_key ON records (project, key) WHERE key != '';
CREATE INDEX records_event ON records (event_at);
CREATE INDEX records_created ON records (created_at);
CREATE INDEX records_expires ON records (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX records_parent_chunk ON records (source_parent, source_chunk) WHERE source_parent IS NOT NULL;
CREATE INDEX records_session ON records (project, session_id, event_at, rid) WHERE session_id != '';
CREATE INDEX records_tags ON records USING gin (tags);

-- BM25 postings: the weighted frequency of each stemmed term in each record
-- (title, text, tags and the turns beside it), computed by the same code as
-- the embedded store's index, so both score alike.
CREATE TABLE postings (
    term text COLLATE "C" NOT NULL,
    rid  bigint NOT NULL REFERENCES records (rid) ON DELETE CASCADE,
    tf   real NOT NULL,
    PRIMARY KEY (term, rid)
);
CREATE INDEX postings_rid ON postings (rid);

-- Facts about this database: the home's embedder.
CREATE TABLE meta (
    key   text PRIMARY KEY,
    value text NOT NULL
);

-- Ingested documents: their chunks are records whose source_parent is the id.
CREATE TABLE documents (
    id         text COLLATE "C" PRIMARY KEY,
    project    text COLLATE "C" NOT NULL,
    uri        text COLLATE "C" NOT NULL,
    hash       text NOT NULL,
    chunks     integer NOT NULL,
    updated_at bigint NOT NULL,
    UNIQUE (project, uri)
);

-- Embeddings by text, so re-ingesting and repeated texts are not recomputed.
-- The vectors of records live in one table per embedder (see vectors.go).
CREATE TABLE embedding_cache (
    embedder  text NOT NULL,
    version   text NOT NULL,
    text_hash text NOT NULL,
    vec       real[] NOT NULL,
    PRIMARY KEY (embedder, version, text_hash)
);

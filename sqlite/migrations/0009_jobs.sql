-- The job ledger (package jobs): one row per run of sync, reindex,
-- summarize, ingest and code indexing. Times are Unix nanoseconds (UTC);
-- seq orders the runs as they started; a run still running renews
-- alive_until, so a row whose lease ended was killed.
CREATE TABLE jobs (
    seq         INTEGER PRIMARY KEY,
    id          TEXT NOT NULL UNIQUE,
    kind        TEXT NOT NULL,
    project     TEXT NOT NULL, -- '': the whole store
    caller      TEXT NOT NULL,
    status      TEXT NOT NULL,
    started_at  INTEGER NOT NULL,
    ended_at    INTEGER,
    alive_until INTEGER NOT NULL,
    owner       TEXT NOT NULL, -- host:pid
    counts      TEXT NOT NULL, -- JSON object
    cursor      TEXT NOT NULL,
    error       TEXT NOT NULL
);
CREATE INDEX jobs_kind ON jobs (kind, seq);
CREATE INDEX jobs_project ON jobs (project, seq);

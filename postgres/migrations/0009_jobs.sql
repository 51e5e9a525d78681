-- The job ledger (package jobs): one row per run of sync, reindex,
-- summarize, ingest and code indexing. Times are Unix nanoseconds (UTC);
-- seq orders the runs as they started; a run still running renews
-- alive_until, so a row whose lease ended was killed.
CREATE TABLE jobs (
    seq         bigserial PRIMARY KEY,
    id          text COLLATE "C" NOT NULL UNIQUE,
    kind        text NOT NULL,
    project     text NOT NULL, -- '': the whole store
    caller      text NOT NULL,
    status      text NOT NULL,
    started_at  bigint NOT NULL,
    ended_at    bigint,
    alive_until bigint NOT NULL,
    owner       text NOT NULL, -- host:pid
    counts      text NOT NULL, -- JSON object
    cursor      text NOT NULL,
    error       text NOT NULL
);
CREATE INDEX jobs_kind ON jobs (kind, seq);
CREATE INDEX jobs_project ON jobs (project, seq);

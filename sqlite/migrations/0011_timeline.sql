-- A session's timeline (ops read, mneme.TimelineStore) from one index:
-- every column its filters test, and the row itself packed into one value
-- (sqlite.timelineRow, the same expression), because the driver's cost in a
-- 10,000-row read is per column. It begins like records_session_id, which
-- it replaces for every other session read (list --session).
DROP INDEX IF EXISTS records_session_id;
CREATE INDEX IF NOT EXISTS records_session_timeline ON records (session_id, id, kind, status, expires_at, sensitivity, project,
    run_id, event_at, (id || char(31) || project || char(31) || kind || char(31) || session_id || char(31) || run_id ||
    char(31) || (status = 'superseded') || char(31) || event_at || char(31) || coalesce(meta, '')))
    WHERE session_id != '';

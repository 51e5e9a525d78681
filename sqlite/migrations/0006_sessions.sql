-- The neighbour triggers (0003) found a turn's neighbours by scanning every
-- record of its project: writing a session of n entries took O(n x records).
-- Row values over (event_at, seq) and the session condition the partial
-- index states let them seek in records_session instead.
DROP TRIGGER records_neighbours_insert;
DROP TRIGGER records_neighbours_update;
DROP TRIGGER records_neighbours_delete;
CREATE TRIGGER records_neighbours_insert AFTER INSERT ON records WHEN new.session_id != '' BEGIN
    INSERT INTO changes (rec) SELECT p.seq FROM records p
        WHERE p.project = new.project AND p.session_id = new.session_id AND p.session_id != ''
        AND (p.event_at, p.seq) < (new.event_at, new.seq)
        ORDER BY p.event_at DESC, p.seq DESC LIMIT 1;
    INSERT INTO changes (rec) SELECT p.seq FROM records p
        WHERE p.project = new.project AND p.session_id = new.session_id AND p.session_id != ''
        AND (p.event_at, p.seq) > (new.event_at, new.seq)
        ORDER BY p.event_at ASC, p.seq ASC LIMIT 1;
END;
CREATE TRIGGER records_neighbours_update AFTER UPDATE OF text, sensitivity, session_id, event_at ON records
    WHEN old.session_id != '' OR new.session_id != '' BEGIN
    INSERT INTO changes (rec) SELECT p.seq FROM records p
        WHERE p.project = old.project AND p.session_id = old.session_id AND p.session_id != ''
        AND (p.event_at, p.seq) < (old.event_at, old.seq)
        ORDER BY p.event_at DESC, p.seq DESC LIMIT 1;
    INSERT INTO changes (rec) SELECT p.seq FROM records p
        WHERE p.project = old.project AND p.session_id = old.session_id AND p.session_id != ''
        AND (p.event_at, p.seq) > (old.event_at, old.seq)
        ORDER BY p.event_at ASC, p.seq ASC LIMIT 1;
    INSERT INTO changes (rec) SELECT p.seq FROM records p
        WHERE p.project = new.project AND p.session_id = new.session_id AND p.session_id != ''
        AND (p.event_at, p.seq) < (new.event_at, new.seq)
        ORDER BY p.event_at DESC, p.seq DESC LIMIT 1;
    INSERT INTO changes (rec) SELECT p.seq FROM records p
        WHERE p.project = new.project AND p.session_id = new.session_id AND p.session_id != ''
        AND (p.event_at, p.seq) > (new.event_at, new.seq)
        ORDER BY p.event_at ASC, p.seq ASC LIMIT 1;
END;
CREATE TRIGGER records_neighbours_delete AFTER DELETE ON records WHEN old.session_id != '' BEGIN
    INSERT INTO changes (rec) SELECT p.seq FROM records p
        WHERE p.project = old.project AND p.session_id = old.session_id AND p.session_id != ''
        AND (p.event_at, p.seq) < (old.event_at, old.seq)
        ORDER BY p.event_at DESC, p.seq DESC LIMIT 1;
    INSERT INTO changes (rec) SELECT p.seq FROM records p
        WHERE p.project = old.project AND p.session_id = old.session_id AND p.session_id != ''
        AND (p.event_at, p.seq) > (old.event_at, old.seq)
        ORDER BY p.event_at ASC, p.seq ASC LIMIT 1;
END;

-- A session's or a run's records without a project (ops read, list
-- --session): a seek in id order, which is the order List pages in.
CREATE INDEX records_session_id ON records (session_id, id) WHERE session_id != '';
CREATE INDEX records_run_id ON records (run_id, id) WHERE run_id != '';

-- A session's or a run's records without a project (ops read, list
-- --session): a seek in id order, which is the order List pages in.
CREATE INDEX records_session_id ON records (session_id, id) WHERE session_id != '';
CREATE INDEX records_run_id ON records (run_id, id) WHERE run_id != '';

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

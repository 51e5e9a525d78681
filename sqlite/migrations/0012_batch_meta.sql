-- A record's meta rows (0007) are written by the writer that inserts it,
-- once per transaction for all its records (sqlite.writer.finish), not by a
-- trigger per row: the trigger was a third of an ops batch's time. Updates
-- and deletes keep their triggers (0007), which are one statement each.
DROP TRIGGER IF EXISTS record_meta_insert;

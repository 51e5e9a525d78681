-- A record's promotion history (who made it reusable, when, from what), as
-- a JSON array kept in its row: it goes wherever the record goes and is
-- deleted with it. Adding a column with a constant default rewrites nothing.
ALTER TABLE records ADD COLUMN promotions text NOT NULL DEFAULT '[]';

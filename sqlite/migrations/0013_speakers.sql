-- The speakers a recall's question names (mneme.SpeakerFinder, sqlite.Speakers):
-- one seek per name on the folded speaker, then the project, instead of a
-- scan of the project. Only conversation turns have a speaker.
CREATE INDEX IF NOT EXISTS records_speaker ON records (lower(speaker), project) WHERE speaker != '';

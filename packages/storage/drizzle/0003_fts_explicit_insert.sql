-- Index new observations from the insert path itself instead of an AFTER INSERT
-- trigger: a trigger runs each row inside its own statement savepoint, which makes FTS5
-- flush an index segment per row (~2.5x slower bulk inserts). @swarm/storage's
-- insertObservation writes the FTS row in the same transaction. Delete/update triggers stay.
DROP TRIGGER IF EXISTS `observations_fts_ai`;

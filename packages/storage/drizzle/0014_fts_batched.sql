-- Index new observations in batches instead of one FTS5 segment per committed row: a
-- single-row commit wrote ~6 of its ~14 WAL pages into observations_fts (a new segment,
-- the structure and averages records, docsize, idx). Rows with id above
-- observations_fts_indexed.through are not indexed yet; @swarm/storage indexes them in
-- one statement every 64 rows, before any search, when the server idles and when the
-- store closes (indexPendingObservations). The delete and update triggers act on indexed
-- rows only: an unindexed row's current content is what the next batch indexes.
CREATE TABLE `observations_fts_indexed` (
	`id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1),
	`through` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `observations_fts_indexed` (`id`, `through`) VALUES (1, (SELECT coalesce(max(`id`), 0) FROM `observations`));
--> statement-breakpoint
DROP TRIGGER IF EXISTS `observations_fts_ad`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `observations_fts_au`;
--> statement-breakpoint
CREATE TRIGGER `observations_fts_ad` AFTER DELETE ON `observations`
WHEN old.id <= (SELECT `through` FROM `observations_fts_indexed` WHERE `id` = 1) BEGIN
	INSERT INTO `observations_fts`(`observations_fts`, rowid, content) VALUES ('delete', old.id, old.content);
END;
--> statement-breakpoint
CREATE TRIGGER `observations_fts_au` AFTER UPDATE OF content ON `observations`
WHEN old.id <= (SELECT `through` FROM `observations_fts_indexed` WHERE `id` = 1) BEGIN
	INSERT INTO `observations_fts`(`observations_fts`, rowid, content) VALUES ('delete', old.id, old.content);
	INSERT INTO `observations_fts`(rowid, content) VALUES (new.id, new.content);
END;

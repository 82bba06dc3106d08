-- Full-text index over observation bodies, kept in sync by triggers.
-- External-content FTS5: the text lives once, in observations; the index holds only terms.
CREATE VIRTUAL TABLE `observations_fts` USING fts5(
	content,
	content='observations',
	content_rowid='id',
	tokenize='porter unicode61 remove_diacritics 2'
);
--> statement-breakpoint
CREATE TRIGGER `observations_fts_ai` AFTER INSERT ON `observations` BEGIN
	INSERT INTO `observations_fts`(rowid, content) VALUES (new.id, new.content);
END;
--> statement-breakpoint
CREATE TRIGGER `observations_fts_ad` AFTER DELETE ON `observations` BEGIN
	INSERT INTO `observations_fts`(`observations_fts`, rowid, content) VALUES ('delete', old.id, old.content);
END;
--> statement-breakpoint
CREATE TRIGGER `observations_fts_au` AFTER UPDATE OF content ON `observations` BEGIN
	INSERT INTO `observations_fts`(`observations_fts`, rowid, content) VALUES ('delete', old.id, old.content);
	INSERT INTO `observations_fts`(rowid, content) VALUES (new.id, new.content);
END;

CREATE TABLE `examples` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`repo_root` text NOT NULL,
	`example_name` text NOT NULL,
	`manifest_kind` text,
	`observation_count` integer DEFAULT 0 NOT NULL,
	`content_hash` text NOT NULL,
	`first_pattern_id` integer,
	`last_pattern_id` integer,
	`summary` text NOT NULL,
	`last_scanned_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `examples_repo_name_uq` ON `examples` (`repo_root`,`example_name`);--> statement-breakpoint
CREATE INDEX `examples_name_idx` ON `examples` (`example_name`);--> statement-breakpoint
-- BM25 index over the CURRENT foraged-pattern observations only (rowid = observation
-- id, example_name unindexed for the filter). examples_query ranks these few hundred
-- rows instead of reading the whole history's doclists. The forager replaces an
-- example's rows in the transaction that replaces its `examples` row.
CREATE VIRTUAL TABLE `examples_fts` USING fts5(
	content,
	example_name UNINDEXED,
	tokenize='porter unicode61 remove_diacritics 2'
);

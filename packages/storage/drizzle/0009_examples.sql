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
CREATE INDEX `examples_name_idx` ON `examples` (`example_name`);
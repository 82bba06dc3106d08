CREATE TABLE `context_entries` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`version` integer NOT NULL,
	`updated_by` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `queue_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`status` text NOT NULL,
	`claimed_by` text,
	`lease_until` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`result` text,
	`enqueued_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`claimed_at` integer,
	`completed_by` text,
	`completed_at` integer
);
--> statement-breakpoint
CREATE INDEX `queue_items_open_idx` ON `queue_items` (`id`) WHERE status != 'done';--> statement-breakpoint
CREATE INDEX `queue_items_status_idx` ON `queue_items` (`status`,`lease_until`);--> statement-breakpoint
CREATE TABLE `write_proposals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`repo_root` text NOT NULL,
	`path` text NOT NULL,
	`content` text NOT NULL,
	`create_dirs` integer NOT NULL,
	`agent` text NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`observation_id` integer NOT NULL,
	`decided_by` text,
	`decided_at` integer,
	`notes` text,
	`error_code` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `write_proposals_pending_uq` ON `write_proposals` (`repo_root`,`path`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `write_proposals_status_idx` ON `write_proposals` (`repo_root`,`status`,`id`);
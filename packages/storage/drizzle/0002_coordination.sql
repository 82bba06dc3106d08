CREATE TABLE `batons` (
	`id` integer PRIMARY KEY NOT NULL,
	`task_id` integer NOT NULL,
	`kind` text NOT NULL,
	`from_session_id` text NOT NULL,
	`from_agent` text NOT NULL,
	`to_agent` text NOT NULL,
	`to_session_id` text,
	`status` text NOT NULL,
	`summary` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`resolved_at` integer,
	`resolved_by_session_id` text,
	`resolution_reason` text,
	FOREIGN KEY (`id`) REFERENCES `observations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `batons_task_status_idx` ON `batons` (`task_id`,`status`);--> statement-breakpoint
CREATE INDEX `batons_status_idx` ON `batons` (`status`,`expires_at`);--> statement-breakpoint
CREATE TABLE `file_claims` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`task_id` integer NOT NULL,
	`file_path` text NOT NULL,
	`session_id` text NOT NULL,
	`agent` text NOT NULL,
	`state` text NOT NULL,
	`claimed_at` integer NOT NULL,
	`refreshed_at` integer NOT NULL,
	`expires_at` integer,
	`baton_id` integer,
	`observation_id` integer NOT NULL,
	`note` text,
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `file_claims_live_uq` ON `file_claims` (`task_id`,`file_path`,`session_id`) WHERE state IN ('active', 'handoff_pending');--> statement-breakpoint
CREATE INDEX `file_claims_path_idx` ON `file_claims` (`file_path`,`state`);--> statement-breakpoint
CREATE INDEX `file_claims_session_idx` ON `file_claims` (`session_id`,`state`);--> statement-breakpoint
CREATE INDEX `file_claims_baton_idx` ON `file_claims` (`baton_id`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` integer PRIMARY KEY NOT NULL,
	`task_id` integer NOT NULL,
	`from_session_id` text NOT NULL,
	`from_agent` text NOT NULL,
	`to_agent` text NOT NULL,
	`to_session_id` text,
	`urgency` text NOT NULL,
	`status` text NOT NULL,
	`reply_to` integer,
	`created_at` integer NOT NULL,
	`expires_at` integer,
	`status_changed_at` integer NOT NULL,
	`claimed_by_session_id` text,
	`claimed_by_agent` text,
	`claimed_at` integer,
	FOREIGN KEY (`id`) REFERENCES `observations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `messages_to_idx` ON `messages` (`to_agent`,`status`);--> statement-breakpoint
CREATE INDEX `messages_to_session_idx` ON `messages` (`to_session_id`,`status`);--> statement-breakpoint
CREATE INDEX `messages_task_idx` ON `messages` (`task_id`,`id`);--> statement-breakpoint
CREATE TABLE `task_links` (
	`low_id` integer NOT NULL,
	`high_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`created_by` text NOT NULL,
	`note` text,
	PRIMARY KEY(`low_id`, `high_id`),
	FOREIGN KEY (`low_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`high_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `task_links_high_idx` ON `task_links` (`high_id`);
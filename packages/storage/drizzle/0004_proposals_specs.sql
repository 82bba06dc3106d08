CREATE TABLE `proposal_reinforcements` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`proposal_id` integer NOT NULL,
	`session_id` text NOT NULL,
	`agent_type` text NOT NULL,
	`kind` text NOT NULL,
	`weight` real NOT NULL,
	`ts` integer NOT NULL,
	`observation_id` integer NOT NULL,
	FOREIGN KEY (`proposal_id`) REFERENCES `proposals`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `proposal_reinforcements_proposal_idx` ON `proposal_reinforcements` (`proposal_id`,`ts`);--> statement-breakpoint
CREATE TABLE `proposals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`repo_root` text NOT NULL,
	`branch` text NOT NULL,
	`summary` text NOT NULL,
	`rationale` text NOT NULL,
	`touches_files` text NOT NULL,
	`status` text NOT NULL,
	`proposed_by_session` text NOT NULL,
	`observation_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`promoted_at` integer,
	`task_id` integer,
	FOREIGN KEY (`proposed_by_session`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `proposals_scope_idx` ON `proposals` (`repo_root`,`branch`,`status`);--> statement-breakpoint
CREATE TABLE `spec_failures` (
	`repo_root` text NOT NULL,
	`signature_hash` text NOT NULL,
	`test_id` text NOT NULL,
	`summary` text NOT NULL,
	`count` integer NOT NULL,
	`first_seen_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`proposal_id` integer,
	PRIMARY KEY(`repo_root`, `signature_hash`),
	FOREIGN KEY (`proposal_id`) REFERENCES `proposals`(`id`) ON UPDATE no action ON DELETE no action
);

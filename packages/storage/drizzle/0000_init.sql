CREATE TABLE `idempotency_keys` (
	`tool` text NOT NULL,
	`key` text NOT NULL,
	`args_hash` text NOT NULL,
	`result` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`tool`, `key`)
);
--> statement-breakpoint
CREATE TABLE `mcp_metrics` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ts` integer NOT NULL,
	`operation` text NOT NULL,
	`session_id` text,
	`duration_ms` real NOT NULL,
	`input_tokens` integer NOT NULL,
	`output_tokens` integer NOT NULL,
	`ok` integer NOT NULL,
	`error_code` text,
	`error_message` text
);
--> statement-breakpoint
CREATE INDEX `mcp_metrics_ts_idx` ON `mcp_metrics` (`ts`);--> statement-breakpoint
CREATE INDEX `mcp_metrics_session_op_idx` ON `mcp_metrics` (`session_id`,`operation`);--> statement-breakpoint
CREATE TABLE `observations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`session_id` text NOT NULL,
	`task_id` integer,
	`kind` text NOT NULL,
	`content` text NOT NULL,
	`metadata` text,
	`reply_to` integer,
	`ts` integer NOT NULL,
	`token_count` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `observations_session_idx` ON `observations` (`session_id`,`id`);--> statement-breakpoint
CREATE INDEX `observations_task_idx` ON `observations` (`task_id`,`id`);--> statement-breakpoint
CREATE INDEX `observations_kind_idx` ON `observations` (`kind`,`id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`ide` text DEFAULT 'unknown' NOT NULL,
	`agent` text,
	`cwd` text,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	`last_heartbeat_at` integer NOT NULL,
	`metadata` text
);
--> statement-breakpoint
CREATE INDEX `sessions_started_idx` ON `sessions` (`started_at`);--> statement-breakpoint
CREATE TABLE `task_participants` (
	`task_id` integer NOT NULL,
	`session_id` text NOT NULL,
	`agent` text NOT NULL,
	`joined_at` integer NOT NULL,
	`left_at` integer,
	PRIMARY KEY(`task_id`, `session_id`),
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `task_participants_session_idx` ON `task_participants` (`session_id`);--> statement-breakpoint
CREATE TABLE `tasks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`repo_root` text NOT NULL,
	`branch` text NOT NULL,
	`title` text,
	`status` text DEFAULT 'active' NOT NULL,
	`created_by_session` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tasks_repo_branch_uq` ON `tasks` (`repo_root`,`branch`);--> statement-breakpoint
CREATE INDEX `tasks_updated_idx` ON `tasks` (`updated_at`);
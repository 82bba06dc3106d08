CREATE TABLE `plan_subtask_claims` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subtask_id` integer NOT NULL,
	`session_id` text NOT NULL,
	`agent` text NOT NULL,
	`state` text NOT NULL,
	`claimed_at` integer NOT NULL,
	`ended_at` integer,
	`observation_id` integer NOT NULL,
	FOREIGN KEY (`subtask_id`) REFERENCES `plan_subtasks`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `plan_subtask_claims_active_uq` ON `plan_subtask_claims` (`subtask_id`) WHERE state = 'active';--> statement-breakpoint
CREATE INDEX `plan_subtask_claims_session_idx` ON `plan_subtask_claims` (`session_id`,`state`);--> statement-breakpoint
CREATE TABLE `plan_subtasks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`plan_id` integer NOT NULL,
	`subtask_index` integer NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`file_scope` text NOT NULL,
	`depends_on` text NOT NULL,
	`capability_hint` text,
	`spec_row_id` text,
	`task_id` integer NOT NULL,
	`branch` text NOT NULL,
	`wave_index` integer NOT NULL,
	`status` text NOT NULL,
	`claimed_by_session_id` text,
	`claimed_by_agent` text,
	`claimed_at` integer,
	`completed_at` integer,
	`observation_id` integer NOT NULL,
	FOREIGN KEY (`plan_id`) REFERENCES `plans`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `plan_subtasks_plan_index_uq` ON `plan_subtasks` (`plan_id`,`subtask_index`);--> statement-breakpoint
CREATE INDEX `plan_subtasks_status_idx` ON `plan_subtasks` (`status`,`plan_id`);--> statement-breakpoint
CREATE INDEX `plan_subtasks_claimer_idx` ON `plan_subtasks` (`claimed_by_session_id`,`status`);--> statement-breakpoint
CREATE INDEX `plan_subtasks_spec_row_idx` ON `plan_subtasks` (`spec_row_id`);--> statement-breakpoint
CREATE INDEX `plan_subtasks_task_idx` ON `plan_subtasks` (`task_id`);--> statement-breakpoint
CREATE TABLE `plans` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`repo_root` text NOT NULL,
	`slug` text NOT NULL,
	`title` text NOT NULL,
	`problem` text NOT NULL,
	`acceptance_criteria` text NOT NULL,
	`spec_task_id` integer NOT NULL,
	`spec_change_path` text,
	`auto_archive` integer DEFAULT false NOT NULL,
	`created_by` text NOT NULL,
	`created_by_agent` text NOT NULL,
	`created_at` integer NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`archived_at` integer,
	`observation_id` integer NOT NULL,
	FOREIGN KEY (`spec_task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `plans_repo_slug_uq` ON `plans` (`repo_root`,`slug`);--> statement-breakpoint
CREATE INDEX `plans_created_idx` ON `plans` (`created_at`);
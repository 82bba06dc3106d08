CREATE TABLE `iteration_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`repo_root` text NOT NULL,
	`config` text NOT NULL,
	`max_iterations` integer NOT NULL,
	`state` text NOT NULL,
	`reason` text,
	`best_score` real,
	`pid` integer,
	`pid_started` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
CREATE INDEX `iteration_runs_state_idx` ON `iteration_runs` (`state`);--> statement-breakpoint
CREATE TABLE `iterations` (
	`run_id` text NOT NULL,
	`number` integer NOT NULL,
	`state` text NOT NULL,
	`exit_code` integer,
	`score` real,
	`improved` integer DEFAULT false NOT NULL,
	`output` text,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	PRIMARY KEY(`run_id`, `number`),
	FOREIGN KEY (`run_id`) REFERENCES `iteration_runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `workflow_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`repo_root` text NOT NULL,
	`definition` text NOT NULL,
	`inputs` text NOT NULL,
	`state` text NOT NULL,
	`pid` integer,
	`pid_started` integer,
	`feedback` text,
	`error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
CREATE INDEX `workflow_runs_state_idx` ON `workflow_runs` (`state`);--> statement-breakpoint
CREATE TABLE `workflow_stages` (
	`run_id` text NOT NULL,
	`name` text NOT NULL,
	`position` integer NOT NULL,
	`type` text NOT NULL,
	`state` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`exit_code` integer,
	`output` text,
	`pgid` integer,
	`pgid_started` integer,
	`started_at` integer,
	`finished_at` integer,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`run_id`, `name`),
	FOREIGN KEY (`run_id`) REFERENCES `workflow_runs`(`id`) ON UPDATE no action ON DELETE cascade
);

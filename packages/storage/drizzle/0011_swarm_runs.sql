CREATE TABLE `swarm_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`repo_root` text NOT NULL,
	`base_ref` text NOT NULL,
	`base_commit` text NOT NULL,
	`merge_strategy` text,
	`merge_target` text,
	`state` text NOT NULL,
	`pid` integer NOT NULL,
	`spec` text NOT NULL,
	`result` text,
	`created_at` integer NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
CREATE INDEX `swarm_runs_state_idx` ON `swarm_runs` (`state`);--> statement-breakpoint
CREATE TABLE `swarm_tasks` (
	`swarm_id` text NOT NULL,
	`name` text NOT NULL,
	`position` integer NOT NULL,
	`state` text NOT NULL,
	`workspace_id` text,
	`branch` text NOT NULL,
	`exit_code` integer,
	`elapsed_ms` integer DEFAULT 0 NOT NULL,
	`start_commit` text,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`swarm_id`, `name`),
	FOREIGN KEY (`swarm_id`) REFERENCES `swarm_runs`(`id`) ON UPDATE no action ON DELETE cascade
);

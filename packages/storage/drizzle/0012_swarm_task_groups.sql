ALTER TABLE `swarm_runs` ADD `pid_started` integer;--> statement-breakpoint
ALTER TABLE `swarm_tasks` ADD `pgid` integer;--> statement-breakpoint
ALTER TABLE `swarm_tasks` ADD `pgid_started` integer;
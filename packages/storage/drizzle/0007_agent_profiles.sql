CREATE TABLE `agent_profiles` (
	`agent` text PRIMARY KEY NOT NULL,
	`capabilities` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);

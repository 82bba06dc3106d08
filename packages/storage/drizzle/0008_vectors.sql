CREATE TABLE `observation_vectors` (
	`observation_id` integer PRIMARY KEY NOT NULL,
	`embedder_id` text NOT NULL,
	`dims` integer NOT NULL,
	`vector` blob NOT NULL,
	FOREIGN KEY (`observation_id`) REFERENCES `observations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `task_vectors` (
	`task_id` integer NOT NULL,
	`embedder_id` text NOT NULL,
	`dims` integer NOT NULL,
	`sum` blob NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`task_id`, `embedder_id`),
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE no action
);

CREATE TABLE `mesh_context` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`owner` text NOT NULL,
	`subscribers` text,
	`version` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`expires_at` integer
);
--> statement-breakpoint
CREATE INDEX `mesh_context_expires_idx` ON `mesh_context` (`expires_at`) WHERE expires_at IS NOT NULL;--> statement-breakpoint
CREATE TABLE `mesh_message_recipients` (
	`message_id` integer NOT NULL,
	`agent` text NOT NULL,
	`read_at` integer,
	PRIMARY KEY(`message_id`, `agent`),
	FOREIGN KEY (`message_id`) REFERENCES `mesh_messages`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `mesh_recipients_inbox_idx` ON `mesh_message_recipients` (`agent`,`read_at`,`message_id`);--> statement-breakpoint
CREATE TABLE `mesh_messages` (
	`id` integer PRIMARY KEY NOT NULL,
	`from_agent` text NOT NULL,
	`message_type` text NOT NULL,
	`priority` text NOT NULL,
	`thread_id` text,
	`requires_confirmation` integer NOT NULL,
	`confirms_id` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`id`) REFERENCES `observations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `mesh_messages_thread_idx` ON `mesh_messages` (`thread_id`,`from_agent`);
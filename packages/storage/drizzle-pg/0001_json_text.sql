ALTER TABLE "idempotency_keys" ALTER COLUMN "result" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "batons" ALTER COLUMN "payload" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "observations" ALTER COLUMN "metadata" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "examples" ALTER COLUMN "summary" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "plan_subtasks" ALTER COLUMN "file_scope" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "plan_subtasks" ALTER COLUMN "depends_on" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "plans" ALTER COLUMN "acceptance_criteria" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "agent_profiles" ALTER COLUMN "capabilities" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "proposals" ALTER COLUMN "touches_files" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "metadata" SET DATA TYPE text;
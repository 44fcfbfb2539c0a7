ALTER TABLE "events" ADD COLUMN "delivery_phase" text DEFAULT 'primary' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "phase_attempt_count" integer DEFAULT 0 NOT NULL;
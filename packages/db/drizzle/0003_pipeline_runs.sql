CREATE TABLE "event_steps" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"node_type" text NOT NULL,
	"node_id" text NOT NULL,
	"node_name" text,
	"status" text NOT NULL,
	"status_code" integer,
	"duration_ms" integer,
	"last_payload" jsonb,
	"error" text,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "pipeline_run" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "pipeline_state" jsonb;--> statement-breakpoint
ALTER TABLE "event_parks" ADD COLUMN "run_id" text;--> statement-breakpoint
ALTER TABLE "event_parks" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "event_steps" ADD CONSTRAINT "event_steps_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_steps_event_idx" ON "event_steps" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "event_parks_unresolved_idx" ON "event_parks" USING btree ("decided_at") WHERE "event_parks"."status" <> 'waiting' and "event_parks"."resolved_at" is null;
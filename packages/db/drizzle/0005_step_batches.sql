CREATE TABLE "event_step_batches" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"steps" json NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Keep the recorded history: one batch per event, its steps in their recorded order.
INSERT INTO "event_step_batches" ("event_id", "steps", "created_at")
SELECT "event_id",
  json_agg(json_strip_nulls(json_build_object(
    'nodeType', "node_type", 'nodeId', "node_id", 'nodeName', "node_name", 'status', "status",
    'statusCode', "status_code", 'durationMs', "duration_ms", 'error', "error",
    'at', to_char("at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))::jsonb
    || CASE WHEN "last_payload" IS NULL THEN '{}'::jsonb
       WHEN "last_payload" = 'null'::jsonb THEN '{}'::jsonb
       ELSE jsonb_build_object('lastPayload', "last_payload") END
    ORDER BY "id")::json,
  min("at")
FROM "event_steps" GROUP BY "event_id";--> statement-breakpoint
DROP TABLE "event_steps" CASCADE;--> statement-breakpoint
ALTER TABLE "event_step_batches" ADD CONSTRAINT "event_step_batches_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_step_batches_event_idx" ON "event_step_batches" USING btree ("event_id","id");
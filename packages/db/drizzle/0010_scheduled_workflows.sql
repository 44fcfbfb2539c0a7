CREATE TABLE "scheduled_workflow_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"workflow_id" text NOT NULL,
	"scheduled_for" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"mode" text NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"status_code" integer,
	"response_body" text,
	"error" text,
	"event_id" text,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "entry_node_id" text;--> statement-breakpoint
ALTER TABLE "scheduled_workflow_runs" ADD CONSTRAINT "scheduled_workflow_runs_workflow_id_pipeline_nodes_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."pipeline_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "scheduled_workflow_runs_tick_idx" ON "scheduled_workflow_runs" USING btree ("workflow_id","scheduled_for");
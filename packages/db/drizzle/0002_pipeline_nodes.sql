CREATE TABLE "canvas_snapshots" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"organization_id" text,
	"name" text NOT NULL,
	"nodes" jsonb NOT NULL,
	"edges" jsonb NOT NULL,
	"graph" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_parks" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"webhook_id" text NOT NULL,
	"node_type" text NOT NULL,
	"node_id" text NOT NULL,
	"kind" text NOT NULL,
	"payload" text NOT NULL,
	"state" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"resume_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"source_type" text NOT NULL,
	"source_id" text NOT NULL,
	"event_id" text,
	"to" jsonb NOT NULL,
	"subject" text NOT NULL,
	"html" text NOT NULL,
	"text" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "pipeline_nodes" (
	"id" text PRIMARY KEY NOT NULL,
	"family" text NOT NULL,
	"owner_id" text NOT NULL,
	"organization_id" text,
	"name" text NOT NULL,
	"config" jsonb NOT NULL,
	"input_nodes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "canvas_snapshots" ADD CONSTRAINT "canvas_snapshots_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "canvas_snapshots" ADD CONSTRAINT "canvas_snapshots_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_parks" ADD CONSTRAINT "event_parks_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_parks" ADD CONSTRAINT "event_parks_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_nodes" ADD CONSTRAINT "pipeline_nodes_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_nodes" ADD CONSTRAINT "pipeline_nodes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "canvas_snapshots_owner_idx" ON "canvas_snapshots" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "canvas_snapshots_org_idx" ON "canvas_snapshots" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "event_parks_event_idx" ON "event_parks" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "event_parks_node_waiting_idx" ON "event_parks" USING btree ("node_id","created_at") WHERE "event_parks"."status" = 'waiting';--> statement-breakpoint
CREATE INDEX "event_parks_due_idx" ON "event_parks" USING btree ("resume_at") WHERE "event_parks"."status" = 'waiting';--> statement-breakpoint
CREATE INDEX "mail_outbox_source_idx" ON "mail_outbox" USING btree ("source_type","source_id","created_at");--> statement-breakpoint
CREATE INDEX "pipeline_nodes_owner_family_idx" ON "pipeline_nodes" USING btree ("owner_id","family","created_at");--> statement-breakpoint
CREATE INDEX "pipeline_nodes_org_family_idx" ON "pipeline_nodes" USING btree ("organization_id","family","created_at");--> statement-breakpoint
CREATE INDEX "pipeline_nodes_inputs_idx" ON "pipeline_nodes" USING gin ("input_nodes" jsonb_path_ops);
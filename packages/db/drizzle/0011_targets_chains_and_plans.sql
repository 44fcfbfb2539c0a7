CREATE TABLE "additional_targets" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"organization_id" text,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"max_retries" integer DEFAULT 3 NOT NULL,
	"filters" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"payload_transform" text,
	"notify_primary_on_failure" boolean DEFAULT false NOT NULL,
	"input_nodes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"health_status" text DEFAULT 'healthy' NOT NULL,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "target_deliveries" (
	"event_id" text NOT NULL,
	"target_id" text NOT NULL,
	"webhook_id" text NOT NULL,
	"run" integer NOT NULL,
	"priority" integer DEFAULT 3 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"body" text NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"last_status_code" integer,
	"last_error" text,
	"next_attempt_at" timestamp with time zone,
	"notify_status" text,
	"notify_attempt_count" integer DEFAULT 0 NOT NULL,
	"failed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "target_deliveries_event_id_target_id_pk" PRIMARY KEY("event_id","target_id")
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "chain_origin_event_id" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "plan" text DEFAULT 'free' NOT NULL;--> statement-breakpoint
ALTER TABLE "additional_targets" ADD CONSTRAINT "additional_targets_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "additional_targets" ADD CONSTRAINT "additional_targets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "target_deliveries" ADD CONSTRAINT "target_deliveries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "additional_targets_owner_idx" ON "additional_targets" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "additional_targets_org_idx" ON "additional_targets" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "additional_targets_inputs_idx" ON "additional_targets" USING gin ("input_nodes" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "target_deliveries_open_idx" ON "target_deliveries" USING btree ("next_attempt_at") WHERE "target_deliveries"."status" in ('pending', 'retrying') or "target_deliveries"."notify_status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "events_chain_step_key" ON "events" USING btree ("parent_event_id","chain_step") WHERE "events"."chain_step" is not null;--> statement-breakpoint
CREATE INDEX "events_chain_origin_idx" ON "events" USING btree ("chain_origin_event_id") WHERE "events"."chain_origin_event_id" is not null;
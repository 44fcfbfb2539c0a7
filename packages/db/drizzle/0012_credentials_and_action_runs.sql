CREATE TABLE "action_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"action_id" text NOT NULL,
	"event_id" text NOT NULL,
	"webhook_id" text NOT NULL,
	"family" text NOT NULL,
	"trigger" text NOT NULL,
	"status" text NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"status_code" integer,
	"response" text,
	"error" text,
	"duration_ms" integer,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "credentials" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"organization_id" text,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"data" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "action_runs" ADD CONSTRAINT "action_runs_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "action_runs_action_event_key" ON "action_runs" USING btree ("action_id","event_id");--> statement-breakpoint
CREATE INDEX "action_runs_event_idx" ON "action_runs" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "credentials_owner_idx" ON "credentials" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "credentials_org_idx" ON "credentials" USING btree ("organization_id","created_at");
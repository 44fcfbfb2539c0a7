ALTER TABLE "event_parks" ADD COLUMN "notified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "event_parks" ADD COLUMN "notify_lease_until" timestamp with time zone;--> statement-breakpoint
UPDATE "event_parks" SET "notified_at" = "created_at" WHERE "kind" = 'approval';--> statement-breakpoint
CREATE INDEX "event_parks_unnotified_idx" ON "event_parks" USING btree ("created_at") WHERE "event_parks"."kind" = 'approval' and "event_parks"."status" = 'waiting' and "event_parks"."notified_at" is null;
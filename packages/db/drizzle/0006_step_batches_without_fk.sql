ALTER TABLE "event_step_batches" DROP CONSTRAINT "event_step_batches_event_id_events_id_fk";
--> statement-breakpoint
-- Deleting events (directly, or through a webhook's cascade) deletes their step batches, as the
-- foreign key did: one statement per deleting statement, over the deleted rows.
CREATE FUNCTION "hookflow_delete_event_step_batches"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "event_step_batches" AS b USING "deleted_events" AS d WHERE b."event_id" = d."id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "events_delete_step_batches" AFTER DELETE ON "events"
  REFERENCING OLD TABLE AS "deleted_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "hookflow_delete_event_step_batches"();

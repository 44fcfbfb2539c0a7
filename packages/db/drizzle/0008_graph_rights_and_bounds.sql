CREATE TABLE "forward_claims" (
	"root_event_id" text NOT NULL,
	"claim_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "forward_claims_root_event_id_claim_key_pk" PRIMARY KEY("root_event_id","claim_key")
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "root_event_id" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "forward_depth" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "forward_claims" ADD CONSTRAINT "forward_claims_root_event_id_events_id_fk" FOREIGN KEY ("root_event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A node graph joins records of one owner scope only (an organization, or one user's personal
-- space). Until now a webhook's graph also took in every node of the webhook's creator, so an
-- organization webhook could run its creator's personal nodes (or the creator's nodes of another
-- organization). Each node that ran in an organization webhook's graph that way moves into that
-- organization, so it keeps running there and the organization's owners and admins see it. A node
-- already in one of the organizations whose graphs it ran in stays where it is; a node that ran in
-- several organizations' graphs goes to the one whose webhook is oldest.
WITH RECURSIVE "hooks" AS (
  SELECT "id", "owner_id", "organization_id", "created_at" FROM "webhooks"
  WHERE "organization_id" IS NOT NULL
), "reach" ("hook_id", "node_id") AS (
  SELECT h."id", n."id" FROM "hooks" h
  JOIN "pipeline_nodes" n ON (n."owner_id" = h."owner_id" OR n."organization_id" = h."organization_id")
    AND n."input_nodes" @> jsonb_build_array(jsonb_build_object('nodeId', h."id"))
  UNION
  SELECT r."hook_id", n."id" FROM "reach" r
  JOIN "hooks" h ON h."id" = r."hook_id"
  JOIN "pipeline_nodes" n ON (n."owner_id" = h."owner_id" OR n."organization_id" = h."organization_id")
    AND (n."input_nodes" @> jsonb_build_array(jsonb_build_object('nodeId', r."node_id"))
      OR EXISTS (
        SELECT 1 FROM "pipeline_nodes" l
        WHERE l."id" = r."node_id" AND l."family" = 'rateLimiter'
          AND l."config" -> 'outputTransformIds' @> to_jsonb(n."id")
      ))
), "candidates" AS (
  SELECT r."node_id", h."organization_id", h."created_at", h."id" AS "hook_id"
  FROM "reach" r JOIN "hooks" h ON h."id" = r."hook_id"
), "moves" AS (
  SELECT DISTINCT ON (c."node_id") c."node_id", c."organization_id"
  FROM "candidates" c JOIN "pipeline_nodes" n ON n."id" = c."node_id"
  WHERE NOT EXISTS (
    SELECT 1 FROM "candidates" k
    WHERE k."node_id" = c."node_id" AND k."organization_id" IS NOT DISTINCT FROM n."organization_id"
  )
  ORDER BY c."node_id", c."created_at", c."hook_id"
)
UPDATE "pipeline_nodes" n SET "organization_id" = m."organization_id", "updated_at" = now()
FROM "moves" m WHERE n."id" = m."node_id";

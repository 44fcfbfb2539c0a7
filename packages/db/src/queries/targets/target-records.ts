import type { Database } from "../../client.js";
import { and, eq, isNotNull, or, sql } from "../../drizzle.js";
import { additionalTargets, organizations, users, webhooks } from "../../schema/index.js";
import { listOwnedPage, type RecordListScope } from "../owned-page.js";
import type { DbExecutor } from "../pipeline-nodes/node-rows.js";

export type AdditionalTargetRow = typeof additionalTargets.$inferSelect;
export type NewAdditionalTargetRow = typeof additionalTargets.$inferInsert;
/** Columns a target update writes (id and owners never change). */
export type AdditionalTargetPatch = Omit<
  NewAdditionalTargetRow,
  "id" | "ownerId" | "organizationId" | "createdAt" | "healthStatus" | "consecutiveFailures"
>;

export async function insertAdditionalTarget(
  db: DbExecutor,
  row: NewAdditionalTargetRow,
): Promise<AdditionalTargetRow> {
  const [inserted] = await db.insert(additionalTargets).values(row).returning();
  if (!inserted) throw new Error("additional target insert returned no row");
  return inserted;
}

export async function findAdditionalTargetById(
  db: DbExecutor,
  id: string,
): Promise<AdditionalTargetRow | undefined> {
  const [row] = await db.select().from(additionalTargets).where(eq(additionalTargets.id, id));
  return row;
}

export async function updateAdditionalTarget(
  db: DbExecutor,
  id: string,
  patch: AdditionalTargetPatch,
): Promise<AdditionalTargetRow | undefined> {
  const [row] = await db
    .update(additionalTargets)
    .set(patch)
    .where(eq(additionalTargets.id, id))
    .returning();
  return row;
}

export async function deleteAdditionalTarget(db: DbExecutor, id: string): Promise<boolean> {
  const rows = await db
    .delete(additionalTargets)
    .where(eq(additionalTargets.id, id))
    .returning({ id: additionalTargets.id });
  return rows.length > 0;
}

export async function listAdditionalTargetsPage(
  db: Database,
  options: { scope: RecordListScope; offset: number; limit: number },
): Promise<{ rows: AdditionalTargetRow[]; total: number }> {
  return listOwnedPage(db, additionalTargets, options);
}

/** `inputNodes` contains `{nodeType: "webhook", nodeId}` (served by the GIN index). */
function fedBy(webhookId: string) {
  return sql`${additionalTargets.inputNodes} @> ${JSON.stringify([
    { nodeType: "webhook", nodeId: webhookId },
  ])}::jsonb`;
}

/**
 * The active targets a webhook's events go to, oldest first: only targets of the webhook's own
 * owner scope (its organization, or for a personal webhook its owner's personal targets), so a
 * link stored across scopes never carries one tenant's events to another's target.
 */
export async function findActiveTargetsOfWebhook(
  db: DbExecutor,
  webhookId: string,
): Promise<AdditionalTargetRow[]> {
  const rows = await db
    .select({ target: additionalTargets })
    .from(additionalTargets)
    .innerJoin(webhooks, eq(webhooks.id, webhookId))
    .where(
      and(
        fedBy(webhookId),
        eq(additionalTargets.isActive, true),
        sql`${additionalTargets.organizationId} is not distinct from ${webhooks.organizationId}`,
        or(isNotNull(webhooks.organizationId), eq(additionalTargets.ownerId, webhooks.ownerId)),
      ),
    )
    .orderBy(additionalTargets.createdAt, additionalTargets.id)
    // The API refuses a 26th link; this bounds a webhook's fan-out even for rows written around it.
    .limit(25);
  return rows.map((row) => row.target);
}

/**
 * How many targets (other than `exceptId`) each of these webhooks already feeds, by webhook id;
 * webhooks without any are absent.
 */
export async function countTargetsOfWebhooks(
  db: DbExecutor,
  webhookIds: readonly string[],
  exceptId: string,
): Promise<Map<string, number>> {
  if (webhookIds.length === 0) return new Map();
  const ids = sql.join(
    webhookIds.map((id) => sql`${id}`),
    sql`, `,
  );
  // One containment test per webhook, each served by the GIN index on input_nodes.
  const rows = (await db.execute(sql`
    select w.id as webhook_id,
      (select count(*)::int from additional_targets t
        where t.id <> ${exceptId}
          and t.input_nodes @> jsonb_build_array(
            jsonb_build_object('nodeType', 'webhook', 'nodeId', w.id))) as n
    from unnest(array[${ids}]::text[]) as w(id)`)) as unknown as Array<{
    webhook_id: string;
    n: number;
  }>;
  return new Map(rows.map((row) => [row.webhook_id, row.n]));
}

/**
 * Removes a deleted webhook from every target's inputNodes (in the caller's transaction).
 * Returns the ids of the targets changed.
 */
export async function detachWebhookFromTargets(
  db: DbExecutor,
  webhookId: string,
  now: Date,
): Promise<string[]> {
  const rows = await db
    .update(additionalTargets)
    .set({
      inputNodes: sql`(select coalesce(jsonb_agg(e), '[]'::jsonb)
        from jsonb_array_elements(${additionalTargets.inputNodes}) e
        where not (e->>'nodeType' = 'webhook' and e->>'nodeId' = ${webhookId}))`,
      updatedAt: now,
    })
    .where(fedBy(webhookId))
    .returning({ id: additionalTargets.id });
  return rows.map((row) => row.id);
}

export type OwnerPlan = "free" | "pro";

/**
 * The plan that limits a record of this owner scope: the organization's for an organization's
 * record, else the owning user's. `free` when the row is gone.
 */
export async function findOwnerPlan(
  db: DbExecutor,
  owner: { ownerId: string; organizationId: string | null },
): Promise<OwnerPlan> {
  const rows =
    owner.organizationId !== null
      ? await db
          .select({ plan: organizations.plan })
          .from(organizations)
          .where(eq(organizations.id, owner.organizationId))
      : await db.select({ plan: users.plan }).from(users).where(eq(users.id, owner.ownerId));
  return rows[0]?.plan === "pro" ? "pro" : "free";
}

/** Sets a user's plan by email; false when no such user. */
export async function setUserPlan(db: Database, email: string, plan: OwnerPlan): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ plan, updatedAt: new Date() })
    .where(sql`lower(${users.email}) = lower(${email})`)
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Sets an organization's plan by id; false when no such organization. */
export async function setOrganizationPlan(
  db: Database,
  organizationId: string,
  plan: OwnerPlan,
): Promise<boolean> {
  const rows = await db
    .update(organizations)
    .set({ plan, updatedAt: new Date() })
    .where(eq(organizations.id, organizationId))
    .returning({ id: organizations.id });
  return rows.length > 0;
}

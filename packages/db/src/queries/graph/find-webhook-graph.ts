import type { DbHandle } from "../../client.js";

/** A node of a webhook's graph as stored; the worker validates `config` with its family schema. */
export interface GraphNodeRow {
  id: string;
  family: string;
  name: string;
  ownerId: string;
  organizationId: string | null;
  config: Record<string, unknown>;
  inputNodes: Array<{ nodeType: string; nodeId: string }>;
  createdAt: Date;
  updatedAt: Date;
}

interface Row {
  id: string;
  family: string;
  name: string;
  owner_id: string;
  organization_id: string | null;
  config: Record<string, unknown>;
  input_nodes: Array<{ nodeType: string; nodeId: string }>;
  created_at: Date | string;
  updated_at: Date | string;
}

/**
 * Every processing node reachable from the webhook, or from a scheduled workflow feeding it
 * (its ticks enter the graph there), along flow edges (a node naming a reached id
 * in its inputNodes, a rate limiter's outputTransformIds), in one recursive query served by the
 * GIN index on input_nodes. Only nodes of the webhook's owner scope join its graph: the
 * webhook's organization, or for a personal webhook its owner's personal nodes. A node of
 * another scope that names the webhook (data from before the rule) never runs in it. Ordered by
 * creation, the engine's tie-break order.
 */
export async function findWebhookGraphNodes(
  handle: DbHandle,
  webhookId: string,
): Promise<GraphNodeRow[]> {
  const rows = await handle.sql<Row[]>`
    with recursive hook as (
      select id, owner_id, organization_id from webhooks where id = ${webhookId}
    ), visible as (
      select n.* from pipeline_nodes n, hook h
      where (h.organization_id is not null and n.organization_id = h.organization_id)
        or (h.organization_id is null and n.organization_id is null and n.owner_id = h.owner_id)
    ), reach(id) as (
      select id from hook
      union
      select v.id from visible v, hook h
      where v.family = 'scheduledWorkflow' and v.config ->> 'webhookId' = h.id
      union
      select next.id from reach r
      cross join lateral (
        select v.id from visible v
        where v.input_nodes @> jsonb_build_array(jsonb_build_object('nodeId', r.id))
        union all
        select v.id from visible l
        cross join jsonb_array_elements_text(l.config -> 'outputTransformIds') as t(id)
        join visible v on v.id = t.id
        where l.id = r.id and l.family = 'rateLimiter'
      ) next
    )
    select v.id, v.family, v.name, v.owner_id, v.organization_id, v.config, v.input_nodes,
      v.created_at, v.updated_at
    from visible v
    where v.id in (select id from reach)
    order by v.created_at, v.id`;
  return rows.map((row) => ({
    id: row.id,
    family: row.family,
    name: row.name,
    ownerId: row.owner_id,
    organizationId: row.organization_id,
    config: row.config,
    inputNodes: row.input_nodes,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  }));
}

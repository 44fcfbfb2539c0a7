import type { DbHandle } from "../../client.js";

/** The advisory-lock class of forwarding budgets; the second key is the root event's hash. */
const FORWARD_BUDGET_LOCK = 0x68666662; // "hffb"

export interface ClaimForwardsInput {
  /** The event whose run forwards. */
  eventId: string;
  /**
   * One key per forward asked for, identifying it within its run (event, run, path, node,
   * target), in the order they should be granted: asking again for a granted key grants it
   * again without spending more.
   */
  keys: readonly string[];
  /** Forwards one root event's descendants may make in all (`GRAPH_MAX_DESCENDANTS`). */
  maxDescendants: number;
  /** Forwards between a root and its deepest descendant (`GRAPH_MAX_FORWARD_DEPTH`). */
  maxDepth: number;
}

export type ClaimForwardsResult =
  /** The keys granted (a prefix of the new ones once the budget runs out, plus those known). */
  | { kind: "claimed"; granted: ReadonlySet<string>; rootEventId: string }
  /** The event's children would nest deeper than `maxDepth` (`depth` is the event's own). */
  | { kind: "too_deep"; depth: number }
  /** The event itself is gone (its apply will find nothing to write either). */
  | { kind: "event_gone" }
  /** The root event was deleted: its budget went with it, so nothing more is granted. */
  | { kind: "root_gone"; rootEventId: string };

interface SourceRow {
  root: string;
  forward_depth: number;
}

interface BudgetRow {
  used: number;
  known: string[];
  root_exists: boolean;
}

/**
 * Grants forwards against the budget of the event's root (its `root_event_id`, or itself), atomic
 * across workers: the root's budget is locked (a transaction-scoped advisory lock) while it is
 * counted and spent. Idempotent per key, so a retried job that forwards the same paths again is
 * granted the same forwards and spends nothing more.
 */
export async function claimForwards(
  handle: DbHandle,
  input: ClaimForwardsInput,
): Promise<ClaimForwardsResult> {
  let root: string | undefined;
  try {
    return await spend(handle, input, (id) => {
      root = id;
    });
  } catch (error) {
    // 23503: the root was deleted between the check and the insert (its claims went with it).
    if (root !== undefined && (error as { code?: string }).code === "23503") {
      return { kind: "root_gone", rootEventId: root };
    }
    throw error;
  }
}

function spend(
  handle: DbHandle,
  input: ClaimForwardsInput,
  onRoot: (rootEventId: string) => void,
): Promise<ClaimForwardsResult> {
  return handle.sql.begin(async (sql) => {
    const [source] = await sql<SourceRow[]>`
      select coalesce(root_event_id, id) as root, forward_depth from events
      where id = ${input.eventId}`;
    if (!source) return { kind: "event_gone" } as const;
    if (source.forward_depth + 1 > input.maxDepth) {
      return { kind: "too_deep", depth: source.forward_depth } as const;
    }
    const root = source.root;
    onRoot(root);
    await sql`select pg_advisory_xact_lock(${FORWARD_BUDGET_LOCK}::int, hashtext(${root}::text))`;
    const asked = [...new Set(input.keys)];
    const [budget] = await sql<BudgetRow[]>`
      select
        (select count(*)::int from forward_claims where root_event_id = ${root}) as used,
        coalesce((select array_agg(claim_key) from forward_claims
          where root_event_id = ${root} and claim_key = any(${asked}::text[])), '{}') as known,
        exists (select 1 from events where id = ${root}) as root_exists`;
    if (!budget?.root_exists) return { kind: "root_gone", rootEventId: root } as const;
    const known = new Set(budget.known);
    const left = Math.max(0, input.maxDescendants - budget.used);
    const fresh = asked.filter((key) => !known.has(key)).slice(0, left);
    if (fresh.length > 0) {
      await sql`
        insert into forward_claims (root_event_id, claim_key)
        select ${root}, key from unnest(${fresh}::text[]) as k(key)
        on conflict do nothing`;
    }
    return { kind: "claimed", granted: new Set([...known, ...fresh]), rootEventId: root } as const;
  });
}

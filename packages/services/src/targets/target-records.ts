import { type AdditionalTargetRow, findAdditionalTargetById } from "@hookflow/db";
import { NotFoundError, type PayloadFilterInput } from "@hookflow/domain";
import { assertVisible } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";

/** A stored additional target (docs/decisions.md, "Additional targets"). */
export type AdditionalTarget = AdditionalTargetRow;

/** A target's writable fields, as the caller's request schema validated them. */
export interface TargetFields {
  name: string;
  url: string;
  isActive: boolean;
  maxRetries: number;
  /** Webhooks only (nodeType webhook): an additional target is fed by webhooks. */
  inputNodes: AdditionalTargetRow["inputNodes"];
  filters: PayloadFilterInput[];
  payloadTransform: string | null;
  notifyPrimaryOnFailure: boolean;
}

/** The target with this id if the actor may see it: 404 when absent, 403 when not theirs. */
export async function loadVisibleTarget(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  id: string,
): Promise<AdditionalTarget> {
  return assertVisible(actor, await findAdditionalTargetById(ctx.db.db, id), "Target");
}

export function targetGone(): NotFoundError {
  return new NotFoundError("Target not found");
}

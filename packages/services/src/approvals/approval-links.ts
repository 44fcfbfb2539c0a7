import { type ApprovalParkView, decideApproval, findApprovalPark } from "@hookflow/db";
import {
  type ApprovalDecision,
  type ApprovalLinkClaims,
  verifyApprovalLinkToken,
} from "@hookflow/domain";
import type { ServiceContext } from "../context.js";
import { PREVIEW_CHARS, resumeDecided } from "./resume-decided.js";

/** The links' verbs also need the secret the tokens are signed with. */
export interface ApprovalLinkContext extends ServiceContext {
  config: { secret: string };
}

/** A waiting (or formerly waiting) event as an approval link's page shows it. */
export type ApprovalPark = ApprovalParkView;

/** What an approval link's page shows: the api turns each into an HTML page and a status. */
export type ApprovalLinkOutcome =
  | { kind: "invalid"; reason: "malformed" | "mismatch" | "expired" }
  | { kind: "gone" }
  | { kind: "alreadyDecided"; park: ApprovalPark }
  | { kind: "confirm"; park: ApprovalPark; decision: ApprovalDecision }
  | { kind: "decided"; park: ApprovalPark; decision: ApprovalDecision };

/** `decided_by` of decisions taken through an emailed link. */
const EMAIL_LINK_DECIDER = "email-link";

type Verified =
  | { ok: true; claims: ApprovalLinkClaims }
  | { ok: false; outcome: ApprovalLinkOutcome };

function verify(ctx: ApprovalLinkContext, token: string): Verified {
  const result = verifyApprovalLinkToken(ctx.config.secret, token, ctx.now().getTime());
  if (result.ok) return result;
  return { ok: false, outcome: { kind: "invalid", reason: result.reason } };
}

function loadPark(ctx: ApprovalLinkContext, parkId: string) {
  return findApprovalPark(ctx.db.db, parkId, PREVIEW_CHARS);
}

/** The confirmation a link opens: never decides (mail scanners fetch links). */
export async function showApprovalLink(
  ctx: ApprovalLinkContext,
  input: { token: string },
): Promise<ApprovalLinkOutcome> {
  const verified = verify(ctx, input.token);
  if (!verified.ok) return verified.outcome;
  const park = await loadPark(ctx, verified.claims.parkId);
  if (!park) return { kind: "gone" };
  if (park.status !== "waiting") return { kind: "alreadyDecided", park };
  return { kind: "confirm", park, decision: verified.claims.decision };
}

/** Applies a link's decision once; any later use finds it already decided. */
export async function decideApprovalLink(
  ctx: ApprovalLinkContext,
  input: { token: string },
): Promise<ApprovalLinkOutcome> {
  const verified = verify(ctx, input.token);
  if (!verified.ok) return verified.outcome;
  const { parkId, decision } = verified.claims;
  const decided = await decideApproval(ctx.db.db, {
    target: { parkId },
    decision,
    decidedBy: EMAIL_LINK_DECIDER,
    now: ctx.now(),
  });
  const park = await loadPark(ctx, parkId);
  if (!park) return { kind: "gone" };
  if (decided.length === 0) return { kind: "alreadyDecided", park };
  await resumeDecided(ctx, decided);
  return { kind: "decided", park, decision };
}

import { claimOwedApprovalMails, type Database } from "@hookflow/db";
import type { PipelineNode } from "@hookflow/pipeline";
import type { ApprovalMail, ApprovalNotifier } from "../pipeline/approval-notifier.js";
import type { GraphCache } from "../pipeline/graph-cache.js";

export interface ApprovalMailSweep {
  /** Mails sent (or kept in the outbox), or found owed to nobody. */
  mailed: number;
  /** Claimed but not sent (mail or graph failure): retried once the claim runs out. */
  retrying: number;
}

/**
 * Sends the request mail of approval parks that have none (`notified_at` null): the worker died,
 * or its send failed, between saving the park and mailing. Only parks older than `createdBefore`
 * are taken, so the worker that parked a path mails it first; each park is claimed before its
 * mail goes out (see `claimOwedApprovalMails`), so a mail is sent once however many sweepers and
 * workers race.
 */
export async function sweepApprovalMail(options: {
  db: Database;
  graphs: GraphCache;
  approvals: ApprovalNotifier;
  createdBefore: Date;
  now: Date;
  limit: number;
}): Promise<ApprovalMailSweep> {
  const claimed = await claimOwedApprovalMails(options.db, {
    createdBefore: options.createdBefore,
    now: options.now,
    leaseMs: options.approvals.leaseMs,
    limit: options.limit,
  });
  if (claimed.length === 0) return { mailed: 0, retrying: 0 };
  const graphs = new Map<string, Promise<ReadonlyMap<string, PipelineNode> | undefined>>();
  const nodesOf = (webhookId: string) => {
    let nodes = graphs.get(webhookId);
    if (!nodes) {
      // A graph that cannot be loaded now leaves its parks claimed: they are retried later.
      nodes = options.graphs.get(webhookId).then(
        (graph) => graph.graph.nodes,
        () => undefined,
      );
      graphs.set(webhookId, nodes);
    }
    return nodes;
  };
  const mails: ApprovalMail[] = [];
  let retrying = 0;
  for (const park of claimed) {
    const nodes = await nodesOf(park.webhookId);
    if (!nodes) {
      retrying += 1;
      continue;
    }
    mails.push({
      parkId: park.parkId,
      eventId: park.eventId,
      webhookId: park.webhookId,
      node: nodes.get(park.nodeId),
      payload: park.payload,
      timeoutAt: park.timeoutAt,
    });
  }
  const outcomes = await options.approvals.sendClaimed(mails);
  const mailed = outcomes.filter((outcome) => outcome === "mailed").length;
  return { mailed, retrying: retrying + outcomes.length - mailed };
}

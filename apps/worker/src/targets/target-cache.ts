import { type DbHandle, findActiveTargetsOfWebhook } from "@hookflow/db";
import { compileJsonTemplate, type PayloadFilter, type TemplateNode } from "@hookflow/domain";
import type { Logger } from "@hookflow/observability";
import type { ChangeFeed } from "@hookflow/queue";
import { WebhookChanged } from "@hookflow/queue";
import { z } from "zod";
import { createInvalidatingCache, dropOnMissedChanges } from "../cache/invalidating-cache.js";
import { safeJson } from "../cache/safe-json.js";

/** An active additional target of a webhook, ready for fan-out (template compiled once). */
export interface CachedTarget {
  id: string;
  name: string;
  notifyPrimaryOnFailure: boolean;
  filters: readonly PayloadFilter[];
  /** Null: the payload goes as it is. */
  template: TemplateNode | null;
}

export interface TargetCache {
  forWebhook: (webhookId: string) => Promise<readonly CachedTarget[]>;
}

const Changed = z.object({ nodeId: z.string() });

/**
 * Each webhook's active targets, cached in the worker like its graph: a target write announces
 * itself on the graph-changed channel (`{nodeId: "tgt_…"}`), which drops every entry (a target
 * may have joined or left any webhook); a webhook change drops that webhook's entry.
 */
export function createTargetCache(options: {
  db: DbHandle;
  feed: ChangeFeed;
  graphChannel: string;
  webhookChannel: string;
  logger: Logger;
  ttlMs?: number;
}): TargetCache {
  const { db, logger } = options;
  const cache = createInvalidatingCache<readonly CachedTarget[]>({
    load: async (webhookId) => {
      const rows = await findActiveTargetsOfWebhook(db.db, webhookId);
      return rows.flatMap((row) => {
        let template: TemplateNode | null = null;
        if (row.payloadTransform !== null) {
          const compiled = compileJsonTemplate(row.payloadTransform);
          if (!compiled.ok) {
            logger.warn({ targetId: row.id }, "ignored a target whose template does not compile");
            return [];
          }
          template = compiled.template;
        }
        const { id, name, notifyPrimaryOnFailure, filters } = row;
        return [{ id, name, notifyPrimaryOnFailure, filters, template }];
      });
    },
    ttlMs: options.ttlMs ?? 30_000,
  });
  options.feed.on(options.graphChannel, (message) => {
    const changed = Changed.safeParse(safeJson(message));
    if (changed.success && !changed.data.nodeId.startsWith("tgt_")) return;
    cache.drop();
  });
  options.feed.on(options.webhookChannel, (message) => {
    const changed = WebhookChanged.safeParse(safeJson(message));
    if (changed.success) cache.drop(changed.data.webhookId);
  });
  dropOnMissedChanges(options.feed, cache);
  return { forWebhook: cache.get };
}

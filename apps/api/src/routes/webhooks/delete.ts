import { createRoute } from "@hono/zod-openapi";
import {
  deleteWebhook,
  detachWebhookFromChains,
  detachWebhookFromTargets,
  findWebhookJobRefs,
  withGraphWriteLock,
} from "@hookflow/db";
import { NotFoundError, ownerScopeOf } from "@hookflow/domain";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { detachReferences } from "../nodes/detach-references.js";
import { publishGraphChanged } from "../nodes/node-records.js";
import { removeWebhookJobs, WEBHOOK_DELETE_MAX_JOBS } from "./remove-webhook-jobs.js";
import {
  BEARER,
  errorResponses,
  loadVisibleWebhook,
  publishWebhookChanged,
  scopeGuard,
  WEBHOOKS_TAG,
  WebhookIdParams,
} from "./webhook-route-kit.js";

const route = createRoute({
  operationId: "deleteWebhook",
  method: "delete",
  path: "/api/webhooks/{id}",
  tags: [WEBHOOKS_TAG],
  summary: "Delete a webhook",
  description:
    "Deletes the webhook with its events and delivery attempts, and removes their waiting and " +
    "delayed jobs from the queues (at most 10,000; any further ones end without a request when " +
    "they run); its ingress URL answers 404 " +
    "from then on. In the same transaction it is removed from every node that references it " +
    "(inputNodes, router routes, rate-limiter outputs) and from every additional target's inputNodes and every webhook's chainWebhookIds; 409 when a node of the webhook's own " +
    "owner cannot do without it (a router whose only route leads to it). Needs webhooks:write.",
  security: BEARER,
  middleware: [scopeGuard("webhooks:write")] as const,
  request: { params: WebhookIdParams },
  responses: {
    204: { description: "Deleted" },
    ...errorResponses(401, 403, 404, 409),
  },
});

export function registerDeleteWebhook(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const webhook = await loadVisibleWebhook(services, c.get("actor"), id);
    const scope = ownerScopeOf(webhook);
    const result = await withGraphWriteLock(services.db.db, scope, async (tx) => {
      const detached = await detachReferences(tx, webhook, services.now());
      await detachWebhookFromTargets(tx, id, services.now());
      const unchained = await detachWebhookFromChains(tx, id, services.now());
      const jobs = await findWebhookJobRefs(tx, id, WEBHOOK_DELETE_MAX_JOBS);
      return { deleted: await deleteWebhook(tx, id), detached, unchained, jobs };
    });
    const { deleted, detached, unchained, jobs } = result;
    if (!deleted) throw new NotFoundError("Webhook not found");
    await removeWebhookJobs(services, id, jobs);
    await publishWebhookChanged(services, id);
    for (const changed of unchained) await publishWebhookChanged(services, changed);
    await publishGraphChanged(services, detached);
    return c.body(null, 204);
  });
}

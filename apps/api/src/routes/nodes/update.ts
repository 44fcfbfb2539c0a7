import { createRoute } from "@hono/zod-openapi";
import { lockPipelineNode, updatePipelineNode, withGraphWriteLock } from "@hookflow/db";
import { ownerScopeOf } from "@hookflow/domain";
import {
  FAMILIES,
  type FamilyConfig,
  type FamilyKey,
  type PipelineNode,
  parseUpdateNode,
  toNodeResponse,
} from "@hookflow/pipeline";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { checkLinkConsent, checkToolConsent } from "../flow-links/check-link-consent.js";
import { checkStillFeeds } from "../scheduled-workflows/feeding-workflows.js";
import { syncSchedulerAfterWrite } from "../scheduled-workflows/sync-scheduler.js";
import { checkActionLinks } from "./check-action-links.js";
import { checkCredentialReferences } from "./check-credential-references.js";
import { checkForwardLimits } from "./check-forward-limits.js";
import { checkMailRecipients } from "./check-mail-recipients.js";
import { checkNodeCycle } from "./check-node-cycle.js";
import { addedReferences, checkNodeReferences, referencesOf } from "./check-node-references.js";
import { familyDocs, patchBodySchema, responseSchema } from "./family-docs.js";
import {
  forwardLimitsOf,
  inputOfNode,
  loadVisibleNode,
  nodeGone,
  publishGraphChanged,
  toPipelineNode,
} from "./node-records.js";
import { BEARER, errorResponses, idParams, scopeGuard } from "./resource-route-kit.js";

export function registerUpdateNode(app: ApiApp, services: ApiServices, key: FamilyKey): void {
  const docs = familyDocs(key);
  const route = createRoute({
    operationId: familyDocs(key).operationIds.update,
    method: "patch",
    path: `/api/${FAMILIES[key].path}/{id}`,
    tags: [docs.tag],
    summary: `Update ${docs.withArticle}`,
    description:
      "Only the fields given change; lists (inputNodes, filters, routes, ...) are replaced " +
      "whole. The merged record is validated as a create would be. References the update adds " +
      "must exist, be visible and belong to the node's own owner, and must not close a cycle " +
      "(400 naming it) nor break a forwarding limit (GRAPH_MAX_DESCENDANTS, " +
      "GRAPH_MAX_FORWARD_DEPTH: 400 when the node's own forwards break it, 409 when the nodes " +
      "it connects do). Lists of mail recipients (notifyEmails) hold at most " +
      `${services.config.mailMaxRecipients} addresses (MAIL_MAX_RECIPIENTS; 400 naming the ` +
      "field). Needs canvas:write.",
    security: BEARER,
    middleware: [scopeGuard("canvas:write")] as const,
    request: {
      params: idParams(`${FAMILIES[key].idPrefix}_01J9Z3K8Q4T6V2X7Y5W0A1B2C3`),
      body: { content: { "application/json": { schema: patchBodySchema(key) } }, required: true },
    },
    responses: {
      200: {
        description: `The updated ${docs.label}`,
        content: { "application/json": { schema: responseSchema(key) } },
      },
      ...errorResponses(docs.label, 400, 401, 403, 404, 409),
    },
  });

  app.openapi(route, async (c) => {
    const actor = c.get("actor");
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const visible = await loadVisibleNode(services, actor, key, id);
    const row = await withGraphWriteLock(services.db.db, ownerScopeOf(visible), async (tx) => {
      const locked = await lockPipelineNode(tx, id);
      if (!locked || locked.family !== key) throw nodeGone(key);
      const current = toPipelineNode(locked);
      const input = parseUpdateNode(key, inputOfNode(current), body);
      checkMailRecipients(key, input.config, services.config.mailMaxRecipients);
      const added = addedReferences(
        referencesOf(key, inputOfNode(current)),
        referencesOf(key, input),
      );
      if (key === "scheduledWorkflow") await checkStillFeeds(tx, id, input.config);
      if (key === "flowLink") {
        await checkLinkConsent(tx, current, input.config as FamilyConfig<"flowLink">);
      }
      if (key === "aiNode") {
        await checkToolConsent(tx, current, input.config as FamilyConfig<"aiNode">);
      }
      const now = services.now();
      const next: PipelineNode = { ...current, ...input, updatedAt: now };
      await checkCredentialReferences(tx, actor, next, input.config);
      if (added.length > 0) {
        await checkNodeReferences(tx, actor, current, added);
        await checkActionLinks(tx, next, added);
        await checkNodeCycle(tx, next);
        await checkForwardLimits(tx, next, forwardLimitsOf(services));
      }
      const updated = await updatePipelineNode(tx, id, {
        name: input.name,
        inputNodes: input.inputNodes,
        config: input.config,
        updatedAt: now,
      });
      if (!updated) throw nodeGone(key);
      return updated;
    });
    await publishGraphChanged(services, [id]);
    if (key === "scheduledWorkflow") await syncSchedulerAfterWrite(services, id);
    return c.json(toNodeResponse(toPipelineNode(row)), 200);
  });
}

import { createRoute } from "@hono/zod-openapi";
import { insertPipelineNode, withGraphWriteLock } from "@hookflow/db";
import { newPrefixedId, ownerScopeOf } from "@hookflow/domain";
import {
  FAMILIES,
  type FamilyConfig,
  type FamilyKey,
  type PipelineNode,
  parseCreateNode,
  toNodeResponse,
} from "@hookflow/pipeline";
import { ownershipOf } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { checkLinkConsent, checkToolConsent } from "../flow-links/check-link-consent.js";
import { checkScheduledWorkflowCap } from "../scheduled-workflows/scheduled-workflow-cap.js";
import { syncSchedulerAfterWrite } from "../scheduled-workflows/sync-scheduler.js";
import { checkActionLinks } from "./check-action-links.js";
import { checkCredentialReferences } from "./check-credential-references.js";
import { checkForwardLimits } from "./check-forward-limits.js";
import { checkMailRecipients } from "./check-mail-recipients.js";
import { checkNodeCycle } from "./check-node-cycle.js";
import { checkNodeReferences, referencesOf } from "./check-node-references.js";
import { createBodySchema, familyDocs, responseSchema } from "./family-docs.js";
import { forwardLimitsOf, publishGraphChanged, toPipelineNode } from "./node-records.js";
import { BEARER, errorResponses, scopeGuard } from "./resource-route-kit.js";

export function registerCreateNode(app: ApiApp, services: ApiServices, key: FamilyKey): void {
  const docs = familyDocs(key);
  const route = createRoute({
    operationId: familyDocs(key).operationIds.create,
    method: "post",
    path: `/api/${FAMILIES[key].path}`,
    tags: [docs.tag],
    summary: `Create ${docs.withArticle}`,
    description:
      "name is required; fields with a default may be omitted. Every inputNodes entry and " +
      "output reference must name an existing webhook or node the caller can see, of the " +
      "node's own owner (the organization acted for, or the caller's personal space), and the " +
      "node must not close a cycle (400 naming it). One event may not spread through forwards " +
      "(router routes, rate-limiter output webhooks) to more than GRAPH_MAX_DESCENDANTS " +
      "(default 100) events, nor nest forwards deeper than GRAPH_MAX_FORWARD_DEPTH (default 5): " +
      "400 naming the limit when the node's own forwards break it, 409 when the node connects " +
      "existing nodes that do. Lists of mail recipients (notifyEmails) hold at most " +
      `${services.config.mailMaxRecipients} addresses (MAIL_MAX_RECIPIENTS; 400 naming the ` +
      "field). Unknown fields are ignored. Needs canvas:write.",
    security: BEARER,
    middleware: [scopeGuard("canvas:write")] as const,
    request: {
      body: { content: { "application/json": { schema: createBodySchema(key) } }, required: true },
    },
    responses: {
      201: {
        description: `The new ${docs.label}`,
        content: { "application/json": { schema: responseSchema(key) } },
      },
      ...errorResponses(docs.label, 400, 401, 403, 409),
    },
  });

  app.openapi(route, async (c) => {
    const actor = c.get("actor");
    const input = parseCreateNode(key, c.req.valid("json"));
    checkMailRecipients(key, input.config, services.config.mailMaxRecipients);
    const now = services.now();
    const node: PipelineNode = {
      id: newPrefixedId(FAMILIES[key].idPrefix, now.getTime()),
      family: key,
      ...ownershipOf(actor),
      ...input,
      createdAt: now,
      updatedAt: now,
    };
    const refs = referencesOf(key, input);
    const row = await withGraphWriteLock(services.db.db, ownerScopeOf(node), async (tx) => {
      if (key === "scheduledWorkflow") await checkScheduledWorkflowCap(tx, node);
      if (key === "flowLink") {
        await checkLinkConsent(tx, node, input.config as FamilyConfig<"flowLink">);
      }
      if (key === "aiNode") {
        await checkToolConsent(tx, node, input.config as FamilyConfig<"aiNode">);
      }
      await checkNodeReferences(tx, actor, node, refs);
      await checkCredentialReferences(tx, actor, node, input.config);
      await checkActionLinks(tx, node, refs);
      await checkNodeCycle(tx, node);
      if (refs.length > 0) await checkForwardLimits(tx, node, forwardLimitsOf(services));
      return insertPipelineNode(tx, { ...node, config: input.config });
    });
    await publishGraphChanged(services, [row.id]);
    if (key === "scheduledWorkflow") await syncSchedulerAfterWrite(services, row.id);
    return c.json(toNodeResponse(toPipelineNode(row)), 201);
  });
}

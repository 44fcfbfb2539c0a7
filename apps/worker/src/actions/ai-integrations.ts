import { type DbHandle, findGmailAiActions } from "@hookflow/db";
import { runGmailOperation } from "@hookflow/google";
import {
  FAMILIES,
  GMAIL_AI_TOOLS,
  GMAIL_OPERATION_CONFIGS,
  type GmailOperation,
  type PipelineNode,
} from "@hookflow/pipeline";
import { z } from "zod";
import type { AiToolSource, ExtraAiTool, ResolveBearerToken } from "../ai/ai-port.js";
import type { ActionPorts } from "./action-ports.js";

/** A tool answer is cut to this many characters (a model reads it as its context). */
const TOOL_ANSWER_MAX_CHARS = 16_000;

/**
 * AI nodes' `credentialId`: a `bearer` credential of the node's own owner scope, opened; any
 * other type, scope or an unknown id gives nothing (the node then fails naming its credential).
 */
export function bearerTokenResolver(
  ports: Pick<ActionPorts, "openCredential">,
): ResolveBearerToken {
  return async (owner, credentialId) => {
    const opened = await ports.openCredential(credentialId, owner);
    return opened.ok && opened.credential.type === "bearer"
      ? opened.credential.data.token
      : undefined;
  };
}

function gmailTool(
  ports: ActionPorts,
  action: PipelineNode<"gmailAction">,
  operation: GmailOperation,
  suffix: string,
): ExtraAiTool {
  const schema = GMAIL_OPERATION_CONFIGS[operation].strict();
  return {
    name: `gmail_${operation}${suffix}`,
    description: `Gmail (${action.name}): ${operation.replaceAll("_", " ")}`,
    parameters: z.toJSONSchema(schema),
    run: async (argumentsJson) => {
      let args: unknown;
      try {
        args = JSON.parse(argumentsJson || "{}");
      } catch {
        return { content: JSON.stringify({ error: "arguments are not JSON" }), status: "error" };
      }
      const checked = schema.safeParse(args);
      if (!checked.success) {
        return {
          content: JSON.stringify({ error: checked.error.issues[0]?.message ?? "invalid" }),
          status: "error",
        };
      }
      const result = await runGmailOperation(ports.google(action), {
        credentialId: action.config.credentialId,
        baseUrl: ports.googleBaseUrls.gmail,
        operation,
        config: checked.data as Record<string, unknown>,
      });
      const content = result.ok ? result.text : JSON.stringify({ error: result.error });
      return {
        content: content.slice(0, TOOL_ANSWER_MAX_CHARS),
        status: result.ok ? `ok ${result.status}` : "error",
      };
    },
  };
}

/**
 * The Gmail tools of AI nodes: every active Gmail action with `aiEnabled` of the node's own owner
 * scope offers its account's operations but `trash` (docs/decisions.md, Gmail actions); tool
 * names are `gmail_<operation>`, with the action id's last 6 characters appended when the scope
 * has several such actions.
 */
export function gmailAiTools(db: DbHandle, ports: ActionPorts): AiToolSource {
  return async (request) => {
    const rows = await findGmailAiActions(db, {
      ownerId: request.ownerId,
      organizationId: request.organizationId,
    });
    const actions = rows.flatMap((row) => {
      const config = FAMILIES.gmailAction.config.safeParse(row.config);
      return config.success && config.data.aiEnabled && config.data.isActive
        ? [{ ...row, family: "gmailAction" as const, config: config.data, inputNodes: [] }]
        : [];
    });
    return actions.flatMap((action) => {
      const suffix = actions.length > 1 ? `_${action.id.slice(-6)}` : "";
      return GMAIL_AI_TOOLS.map((operation) => gmailTool(ports, action, operation, suffix));
    });
  };
}

import { z } from "@hono/zod-openapi";

// The time-travel answer's OpenAPI schema; `buildTimeTravelReport` (@hookflow/services) builds
// the answer.

/**
 * What each step of a time-travel run says (docs/decisions.md, "Node families and canvas"; see
 * TimeTravelResult in @hookflow/services):
 * - `passed`: the node let the event through (`payload` shows it when the node changed it);
 * - `forwarded`: a router or rate limiter sent it on as a new event (`forwardedTo` webhooks), or
 *   a flow link would run its webhook's pipeline (`payload`: what it would be called with);
 * - `blocked`: the node stopped the path on purpose (filter, router or payload filters without
 *   a match, rate-limiter drop; `reason`);
 * - `failed`: the node failed the event (validation, transform error; `error`);
 * - `parked`: the path would wait here (`park`: delay, approval, rateLimiter queue, merge);
 * - `would_deliver`: the path reached its end and would be delivered (`payload`).
 */
const TIME_TRAVEL_RESULTS = [
  "passed",
  "forwarded",
  "blocked",
  "failed",
  "parked",
  "would_deliver",
] as const;

const TimeTravelStep = z
  .object({
    node: z.string().openapi({ description: "Node id (the webhook id for payload filters)" }),
    nodeType: z.string(),
    name: z.string(),
    result: z.enum(TIME_TRAVEL_RESULTS),
    reason: z.string().optional(),
    error: z.string().optional(),
    park: z.string().optional(),
    forwardedTo: z.array(z.string()).optional(),
    payload: z.unknown().optional(),
    wouldCall: z.unknown().optional().openapi({
      description: "An AI node: the chat-completions request it would send (nothing is called)",
    }),
  })
  .openapi("TimeTravelStep");

export const TimeTravelReport = z
  .object({
    steps: z.array(TimeTravelStep),
    finalStatus: z.enum(["delivered", "pending", "failed", "filtered"]).openapi({
      description:
        "The status the event would end in: delivered when a path would be delivered or " +
        "forwarded, else pending when a path would wait, else failed, else filtered",
    }),
    matchedNodes: z.number().int().openapi({
      description: "Distinct processing nodes the event passed (passed or forwarded)",
    }),
  })
  .openapi("TimeTravelReport");

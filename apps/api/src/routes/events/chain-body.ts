import { z } from "@hono/zod-openapi";

/**
 * The chain an event takes part in (docs/decisions.md, "Chains"), from its origin: every step of
 * the origin webhook's `chainWebhookIds`, with the step's event and status once it ran, and
 * `not_reached` for the steps a failure (or a limit) stopped before.
 */
export const ChainView = z
  .object({
    originEventId: z.string(),
    steps: z.array(
      z.object({
        step: z.number().int(),
        webhookId: z.string(),
        eventId: z.string().nullable(),
        status: z.string().openapi({ description: "The step event's status, or not_reached" }),
      }),
    ),
  })
  .openapi("EventChain");

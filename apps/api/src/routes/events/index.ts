import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { registerCancelEvent } from "./cancel.js";
import { registerContractHealth } from "./contract-health.js";
import { registerEventDeliveries } from "./deliveries.js";
import { registerGetEvent } from "./get.js";
import { registerGetEventSteps } from "./get-event-steps.js";
import { registerEventLatency } from "./latency.js";
import { registerListEvents } from "./list.js";
import { registerReplayEvent } from "./replay.js";
import { registerReplayAllEvents } from "./replay-all.js";
import { registerEventStats } from "./stats.js";
import { registerTestWebhook } from "./test-webhook.js";
import { registerTimeTravel } from "./time-travel.js";
import { registerEventTimeline } from "./timeline.js";
import { registerEventTypes } from "./types.js";

/** The events API (docs/decisions.md, "Events API" and "Delivery"). */
export function registerEventRoutes(app: ApiApp, services: ApiServices): void {
  registerListEvents(app, services);
  // Fixed paths before `/api/events/{id}`, so `types` is never read as an event id.
  registerEventTypes(app, services);
  registerEventStats(app, services);
  registerEventLatency(app, services);
  registerEventTimeline(app, services);
  registerReplayAllEvents(app, services);
  registerGetEvent(app, services);
  registerEventDeliveries(app, services);
  registerGetEventSteps(app, services);
  registerReplayEvent(app, services);
  registerCancelEvent(app, services);
  registerTestWebhook(app, services);
  registerContractHealth(app, services);
  registerTimeTravel(app, services);
}

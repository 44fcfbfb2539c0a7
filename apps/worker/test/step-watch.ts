import { createStepHub, type StepHub } from "@hookflow/queue";
import { Redis } from "ioredis";
import type { WorkerHarness } from "./harness.js";

export interface StepWatch {
  /** Watches an event's published steps, as the stream app does. */
  hub: StepHub;
  close: () => Promise<void>;
}

/** A step hub on the harness's Redis prefix, with a subscriber connection of its own. */
export function startStepWatch(h: WorkerHarness): StepWatch {
  const subscriber = new Redis(h.services.config.redisUrl);
  const hub = createStepHub({
    subscriberRedis: subscriber,
    commandRedis: h.services.redis,
    keys: h.services.keys,
  });
  return {
    hub,
    close: async () => {
      await hub.close();
      subscriber.disconnect();
    },
  };
}

import { waitUntil } from "@hookflow/testing";
import { laneTiming } from "../../src/lanes/lane-timing.js";
import {
  attemptRows,
  deliveryLogs,
  FAST_ENV,
  ingest,
  isDelivered,
  seedWebhook,
  useQueueFaultSuite,
  waitForEvents,
} from "./fault-kit.js";
import { holdFirstAt } from "./fault-receiver.js";

const TEST_TIMEOUT_MS = 60_000;

const kit = useQueueFaultSuite(TEST_TIMEOUT_MS);

describe("a worker killed with SIGKILL mid-delivery", () => {
  it(
    "leaves the job to another worker once its lock expires, and that worker delivers and records it",
    async () => {
      const webhook = await seedWebhook(kit.database.db, kit.ownerId, {
        targetUrl: `${kit.receiver.url}/kill`,
      });
      const first = await kit.workers.start("worker", kit.env, "worker-a");
      holdFirstAt(kit.receiver, "/kill", () => first.signal("SIGKILL"));

      const eventId = await ingest(kit.ingress, webhook.ingressToken, { order: 1 });
      expect(await first.exited).toEqual({ code: null, signal: "SIGKILL" });
      // The dead worker's job is still active in Redis, under a lock nobody renews.
      expect(await kit.queues.lane(webhook.priority).getJobState(eventId)).toBe("active");

      const second = await kit.workers.start("worker", kit.env, "worker-b");
      const [row] = await waitForEvents(kit.database.db, [eventId], isDelivered);

      const arrivals = kit.receiver.arrivals.filter((arrival) => arrival.eventId === eventId);
      expect(arrivals.map(({ attempt, answered }) => ({ attempt, answered }))).toEqual([
        // The killed worker never recorded its attempt, so the retry is attempt 1 again.
        { attempt: "1", answered: undefined },
        { attempt: "1", answered: 200 },
      ]);
      expect(row?.attemptCount).toBe(1);
      const attempts = await attemptRows(kit.database.db, eventId);
      expect(
        attempts.map(({ attempt, success, statusCode }) => ({ attempt, success, statusCode })),
      ).toEqual([{ attempt: 1, success: true, statusCode: 200 }]);
      await second.waitForLog(
        (line) =>
          line.msg === "delivery job" && line.eventId === eventId && line.outcome === "delivered",
      );
      expect(await kit.queues.activeCount()).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});

describe("a worker frozen mid-delivery for longer than DELIVERY_TIMEOUT_MS", () => {
  it(
    "keeps its job's lock, so a second worker checking for stalled jobs never sends a concurrent copy",
    async () => {
      const webhook = await seedWebhook(kit.database.db, kit.ownerId, {
        targetUrl: `${kit.receiver.url}/freeze`,
      });
      const frozen = await kit.workers.start("worker", kit.env, "worker-frozen");
      let frozenAt = 0;
      holdFirstAt(kit.receiver, "/freeze", () => {
        frozenAt = Date.now();
        frozen.signal("SIGSTOP");
      });

      const eventId = await ingest(kit.ingress, webhook.ingressToken, { order: 2 });
      await waitUntil(() => (frozenAt > 0 ? true : undefined));
      const lane = kit.queues.lane(webhook.priority);
      const redisCmd = kit.queues.connection;
      const lockKey = lane.toKey(`${eventId}:lock`);
      const owner = await redisCmd.get(lockKey);
      expect(owner).toEqual(expect.any(String));
      const other = await kit.workers.start("worker", kit.env, "worker-watching");

      // Freeze until a lock of only DELIVERY_TIMEOUT_MS would have expired and the other
      // worker's stalled check (every `stalledInterval`) would have run several times since.
      const timeoutMs = Number(FAST_ENV.DELIVERY_TIMEOUT_MS);
      const { stalledInterval } = laneTiming({
        deliveryTimeoutMs: timeoutMs,
        delayScale: Number(FAST_ENV.HOOKFLOW_DELAY_SCALE),
      });
      await waitUntil(
        async () =>
          (await redisCmd.sismember(lane.toKey("stalled"), eventId)) === 1 &&
          Date.now() - frozenAt > timeoutMs + 4 * stalledInterval
            ? true
            : undefined,
        { timeoutMs: 20_000, describe: () => other.output() },
      );
      // Still the frozen worker's lock; never moved back to wait by a stalled check (`stc`).
      expect(await redisCmd.get(lockKey)).toBe(owner);
      expect(await redisCmd.hget(lane.toKey(eventId), "stc")).toBeNull();
      expect(await lane.getJobState(eventId)).toBe("active");
      expect(kit.receiver.arrivals.filter((arrival) => arrival.eventId === eventId)).toHaveLength(
        1,
      );
      expect(deliveryLogs(other, eventId)).toEqual([]);

      kit.receiver.release();
      frozen.signal("SIGCONT");
      await waitForEvents(kit.database.db, [eventId], isDelivered);

      // Resumed past its timeout, the frozen worker may have recorded a timeout and retried;
      // either way no two copies of the event were ever in flight together.
      expect(kit.receiver.maxInFlight([eventId])).toBe(1);
      expect(kit.receiver.delivered(eventId)).toBeGreaterThanOrEqual(1);
      const attempts = await attemptRows(kit.database.db, eventId);
      expect(attempts.at(-1)?.success).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "gives a slow receiver exactly one request while two workers share the queue",
    async () => {
      const webhook = await seedWebhook(kit.database.db, kit.ownerId, {
        targetUrl: `${kit.receiver.url}/slow`,
      });
      await kit.workers.start("worker", kit.env, "worker-1");
      await kit.workers.start("worker", kit.env, "worker-2");
      // Slower than many stalled checks of both workers, within the HTTP timeout.
      kit.receiver.reply(() => ({
        status: 200,
        delayMs: Number(FAST_ENV.DELIVERY_TIMEOUT_MS) / 2,
      }));

      const ids = await Promise.all(
        [1, 2, 3, 4].map((n) => ingest(kit.ingress, webhook.ingressToken, { slow: n })),
      );
      await waitForEvents(kit.database.db, ids, isDelivered);

      expect(kit.receiver.maxInFlight(ids)).toBe(1);
      expect(ids.map((id) => kit.receiver.delivered(id))).toEqual([1, 1, 1, 1]);
    },
    TEST_TIMEOUT_MS,
  );
});

import { type ChildApp, waitUntil } from "@hookflow/testing";
import {
  attemptRows,
  deliveryLogs,
  eventRows,
  ingest,
  isDelivered,
  seedWebhook,
  useQueueFaultSuite,
  waitForEvents,
} from "./fault-kit.js";
import { holdFirstAt } from "./fault-receiver.js";

const TEST_TIMEOUT_MS = 60_000;

const kit = useQueueFaultSuite(TEST_TIMEOUT_MS);

describe("two worker processes on one queue", () => {
  it(
    "deliver each of many events exactly once between them",
    async () => {
      const webhook = await seedWebhook(kit.database.db, kit.ownerId, {
        targetUrl: `${kit.receiver.url}/shared`,
      });
      const workerA = await kit.workers.start("worker", kit.env, "worker-a");
      const workerB = await kit.workers.start("worker", kit.env, "worker-b");
      // A little latency per request keeps both workers busy, so both take a share.
      kit.receiver.reply(() => ({ status: 200, delayMs: 20 }));

      const ids = await Promise.all(
        Array.from({ length: 60 }, (_, n) => ingest(kit.ingress, webhook.ingressToken, { n })),
      );
      const rows = await waitForEvents(kit.database.db, ids, isDelivered);

      expect(ids.map((id) => kit.receiver.delivered(id))).toEqual(ids.map(() => 1));
      expect(kit.receiver.arrivals.filter((arrival) => ids.includes(arrival.eventId))).toHaveLength(
        60,
      );
      expect(rows.map((row) => row.attemptCount)).toEqual(ids.map(() => 1));
      // Each event was delivered by one worker; both workers took a share. (A sweep racing a
      // job's completion may add a no-op "settled" run, never a second delivery.)
      const deliveredBy = (app: ChildApp) =>
        deliveryLogs(app).filter(
          (line) => line.outcome === "delivered" && ids.includes(String(line.eventId)),
        );
      await waitUntil(() =>
        deliveredBy(workerA).length + deliveredBy(workerB).length >= 60 ? true : undefined,
      );
      const byA = deliveredBy(workerA);
      const byB = deliveredBy(workerB);
      expect(new Set([...byA, ...byB].map((line) => line.eventId)).size).toBe(60);
      expect(byA.length + byB.length).toBe(60);
      expect(byA.length).toBeGreaterThan(0);
      expect(byB.length).toBeGreaterThan(0);
    },
    TEST_TIMEOUT_MS,
  );
});

describe("SIGTERM to a worker with a delivery in flight", () => {
  it(
    "lets the delivery finish and be recorded, then exits 0 with no job left active",
    async () => {
      const webhook = await seedWebhook(kit.database.db, kit.ownerId, {
        targetUrl: `${kit.receiver.url}/term`,
      });
      const worker = await kit.workers.start("worker", kit.env, "worker-term");
      holdFirstAt(kit.receiver, "/term", () => worker.signal("SIGTERM"));

      const eventId = await ingest(kit.ingress, webhook.ingressToken, { order: "graceful" });
      // The worker has begun shutting down while its request is still held open.
      await worker.waitForLog((line) => line.msg === "shutting down" && line.signal === "SIGTERM");
      expect(worker.running()).toBe(true);
      const [pending] = await eventRows(kit.database.db, [eventId]);
      expect(pending?.status).toBe("pending");

      kit.receiver.release(200);
      expect(await worker.exited).toEqual({ code: 0, signal: null });

      const [row] = await eventRows(kit.database.db, [eventId]);
      expect(row?.status).toBe("delivered");
      const attempts = await attemptRows(kit.database.db, eventId);
      expect(attempts.map(({ success, statusCode }) => ({ success, statusCode }))).toEqual([
        { success: true, statusCode: 200 },
      ]);
      expect(deliveryLogs(worker, eventId).map((line) => line.outcome)).toEqual(["delivered"]);
      expect(worker.output()).toMatch(/"msg":"stopped"/);
      expect(await kit.queues.activeCount()).toBe(0);
      expect(await kit.queues.lane(webhook.priority).getJob(eventId)).toBeUndefined();
    },
    TEST_TIMEOUT_MS,
  );
});

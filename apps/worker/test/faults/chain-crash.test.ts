import { waitUntil } from "@hookflow/testing";
import {
  eventRows,
  ingest,
  isDelivered,
  seedWebhook,
  useQueueFaultSuite,
  waitForEvents,
} from "./fault-kit.js";

const TEST_TIMEOUT_MS = 60_000;

const kit = useQueueFaultSuite(TEST_TIMEOUT_MS);

/** The advisory-lock class of forwarding budgets (claimed before a chain step is created). */
const FORWARD_BUDGET_LOCK = 0x68666662;

describe("a worker killed between a delivery and the chain's next step", () => {
  it(
    "leaves the step to the next worker, which creates and delivers it exactly once",
    async () => {
      const step = await seedWebhook(kit.database.db, kit.ownerId, {
        targetUrl: `${kit.receiver.url}/chain-step`,
      });
      const origin = await seedWebhook(kit.database.db, kit.ownerId, {
        targetUrl: `${kit.receiver.url}/chain-origin`,
        chainWebhookIds: [step.id],
      });
      let heldEventId: string | undefined;
      kit.receiver.reply((arrival) => {
        if (arrival.path === "/chain-origin" && heldEventId === undefined) {
          heldEventId = arrival.eventId;
          return { hold: true };
        }
        return { status: 200 };
      });
      const first = await kit.workers.start("worker", kit.env, "worker-a");
      const eventId = await ingest(kit.ingress, origin.ingressToken, { order: 7 });
      await waitUntil(() => heldEventId);
      expect(heldEventId).toBe(eventId);

      // Hold the event's forwarding budget, which the next step must claim: the worker records the
      // delivery, then waits on this lock, and is killed right there.
      const blocker = await kit.database.sql.reserve();
      try {
        await blocker`select pg_advisory_lock(${FORWARD_BUDGET_LOCK}::int, hashtext(${eventId}::text))`;
        kit.receiver.release(200);
        await waitForEvents(kit.database.db, [eventId], isDelivered);
        await waitUntil(async () => {
          const [row] = await kit.database.sql<Array<{ waiting: number }>>`
            select count(*)::int as waiting from pg_locks
            where locktype = 'advisory' and not granted`;
          return (row?.waiting ?? 0) > 0 ? true : undefined;
        });
        first.signal("SIGKILL");
        expect(await first.exited).toEqual({ code: null, signal: "SIGKILL" });
        const children = await kit.database.db.query.events.findMany({
          where: (e, { eq }) => eq(e.parentEventId, eventId),
        });
        expect(children).toHaveLength(0);
      } finally {
        await blocker`select pg_advisory_unlock_all()`;
        blocker.release();
      }

      await kit.workers.start("worker", kit.env, "worker-b");
      const child = await waitUntil(async () => {
        const rows = await kit.database.db.query.events.findMany({
          where: (e, { eq }) => eq(e.parentEventId, eventId),
        });
        return rows[0]?.status === "delivered" ? rows : undefined;
      });
      expect(child).toHaveLength(1);
      expect(child[0]).toMatchObject({
        webhookId: step.id,
        chainStep: 1,
        chainOriginEventId: eventId,
      });
      const stepId = child[0]?.id ?? "";
      const stepArrivals = kit.receiver.arrivals.filter((arrival) => arrival.eventId === stepId);
      expect(stepArrivals.map(({ answered }) => answered)).toEqual([200]);
      // The origin was delivered once: the recovering worker only continued its chain.
      const originArrivals = kit.receiver.arrivals.filter((arrival) => arrival.eventId === eventId);
      expect(originArrivals).toHaveLength(1);
      const [originRow] = await eventRows(kit.database.db, [eventId]);
      expect(originRow?.attemptCount).toBe(1);
    },
    TEST_TIMEOUT_MS,
  );
});

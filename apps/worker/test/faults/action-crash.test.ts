import { listActionRuns, pipelineNodes } from "@hookflow/db";
import { newPrefixedId } from "@hookflow/domain";
import { FAMILIES } from "@hookflow/pipeline";
import { type ChildLogLine, waitUntil } from "@hookflow/testing";
import {
  ingest,
  isDelivered,
  seedWebhook,
  useQueueFaultSuite,
  waitForEvents,
} from "./fault-kit.js";

const TEST_TIMEOUT_MS = 60_000;

const kit = useQueueFaultSuite(TEST_TIMEOUT_MS);

describe("a worker killed with SIGKILL while a post-delivery action runs", () => {
  it(
    "leaves the run to another worker, which finishes it as the same single run",
    async () => {
      const webhook = await seedWebhook(kit.database.db, kit.ownerId, {
        targetUrl: `${kit.receiver.url}/target`,
      });
      const definition = FAMILIES.httpAction;
      const actionId = newPrefixedId(definition.idPrefix);
      await kit.database.db.insert(pipelineNodes).values({
        id: actionId,
        family: "httpAction",
        ownerId: kit.ownerId,
        organizationId: null,
        name: "after delivery",
        config: definition.config.parse({
          ...definition.defaults,
          url: `${kit.receiver.url}/action`,
        }),
        inputNodes: [{ nodeType: "webhook", nodeId: webhook.id }],
      });
      const first = await kit.workers.start("worker", kit.env, "worker-a");
      let held = false;
      kit.receiver.reply((arrival) => {
        if (arrival.path !== "/action" || held) return { status: 200 };
        held = true;
        first.signal("SIGKILL");
        return { hold: true };
      });

      const eventId = await ingest(kit.ingress, webhook.ingressToken, { order: 1 });
      expect(await first.exited).toEqual({ code: null, signal: "SIGKILL" });
      const [row] = await waitForEvents(kit.database.db, [eventId], isDelivered);
      expect(row?.status).toBe("delivered");

      // Worker B's HTTP timeout is generous: on a loaded machine its try must not time out and
      // retry, which would be a third, legitimate claim. Its lock and stalled checks do not
      // depend on it, and A's lock, which decides when the run comes back, is A's.
      const second = await kit.workers.start(
        "worker",
        { ...kit.env, DELIVERY_TIMEOUT_MS: "20000" },
        "worker-b",
      );
      const runs = await waitUntil(
        async () => {
          const found = await listActionRuns(kit.database, eventId);
          return found[0]?.status === "success" ? found : undefined;
        },
        { timeoutMs: 30_000 },
      );
      expect(runs).toHaveLength(1);
      // Worker B's tries as it logged them, beside the run's claims: one try, which succeeded.
      const ofEvent = (line: ChildLogLine) =>
        line.eventId === eventId && (line.msg === "action job" || line.msg === "action job failed");
      await second.waitForLog((line) => ofEvent(line) && line.outcome === "success");
      const triesOfB = second
        .logs()
        .filter(ofEvent)
        .map(({ msg, try: n, outcome, reason, error, err }) => ({
          msg,
          try: n,
          outcome,
          reason,
          error,
          err,
        }));
      expect({ run: runs[0], triesOfB }).toMatchObject({
        run: { actionId, status: "success", tries: 2, statusCode: 200 },
        triesOfB: [{ msg: "action job", try: 1, outcome: "success" }],
      });
      const paths = kit.receiver.arrivals.filter((a) => a.eventId === eventId).map((a) => a.path);
      // One delivery; the action's interrupted try and the one that finished it.
      expect(paths).toEqual(["/target", "/action", "/action"]);
    },
    TEST_TIMEOUT_MS,
  );
});

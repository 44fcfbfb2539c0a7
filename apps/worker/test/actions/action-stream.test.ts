import type { StepEntry, StepHub } from "@hookflow/queue";
import { type Receiver, startReceiver } from "@hookflow/testing";
import { startWorkerHarness, type WorkerHarness } from "../harness.js";
import { createNode, fromWebhook } from "../pipeline/pipeline-harness.js";
import { type StepWatch, startStepWatch } from "../step-watch.js";

let h: WorkerHarness;
let receiver: Receiver;
let watch: StepWatch;
let hub: StepHub;

beforeAll(async () => {
  h = await startWorkerHarness();
  receiver = await startReceiver();
  watch = startStepWatch(h);
  hub = watch.hub;
});

afterAll(async () => {
  await watch?.close();
  await h.close();
  await receiver.close();
});

/** The event's messages until `last` holds for one of them. */
function messagesUntil(eventId: string, last: (entry: StepEntry) => boolean): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const seen: string[] = [];
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`saw only ${JSON.stringify(seen)}`));
    }, 15_000);
    const stop = hub.watch(eventId, {}, (entry) => {
      const { message } = entry;
      seen.push(
        message.kind === "step"
          ? `${message.step.nodeType} ${message.step.status}`
          : message.kind === "done"
            ? `done ${message.done.body.deliveryStatus}`
            : "parked",
      );
      if (!last(entry)) return;
      clearTimeout(timer);
      stop();
      resolve(seen);
    });
  });
}

it("streams an action's running step before the event's done, and its outcome after", async () => {
  const webhook = await h.createWebhook({ targetUrl: `${receiver.url}/hook` });
  await createNode(h, "httpAction", { url: `${receiver.url}/action` }, [fromWebhook(webhook.id)]);
  const { id } = await h.createEvent(webhook);
  const messages = await messagesUntil(
    id,
    ({ message }) =>
      message.kind === "step" &&
      message.step.nodeType === "httpAction" &&
      message.step.status === "success",
  );
  expect(messages).toEqual([
    "delivery running",
    "delivery success",
    "httpAction running",
    "done delivered",
    "httpAction success",
  ]);
});

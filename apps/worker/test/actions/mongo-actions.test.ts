import {
  type MongoWireServer,
  type Receiver,
  startMongoWireServer,
  startReceiver,
} from "@hookflow/testing";
import { startWorkerHarness, type WorkerHarness } from "../harness.js";
import { createNode, fromWebhook } from "../pipeline/pipeline-harness.js";
import { insertCredential, waitForActionRuns } from "./actions-harness.js";

const PAYLOAD = { id: "A-1", total: 12.5, customer: { name: "Ada" } };

describe("mongo actions with the official driver against an in-process wire server", () => {
  let h: WorkerHarness;
  let mongo: MongoWireServer;
  let target: Receiver;
  beforeAll(async () => {
    mongo = await startMongoWireServer();
    target = await startReceiver();
    h = await startWorkerHarness();
  });
  afterAll(async () => {
    await h.close();
    await mongo.close();
    await target.close();
  });

  async function run(config: Record<string, unknown>, connectionUri = mongo.uri) {
    const credentialId = await insertCredential(h, "mongodb", { connectionUri });
    const webhook = await h.createWebhook({ targetUrl: target.url });
    await createNode(
      h,
      "mongoAction",
      { credentialId, database: "shop", collection: "orders", ...config } as never,
      [fromWebhook(webhook.id)],
    );
    const from = mongo.writes().length;
    const event = await h.createEvent(webhook, { body: JSON.stringify(PAYLOAD) });
    const [result] = await waitForActionRuns(h, event.id, 1);
    return { run: result, writes: mongo.writes().slice(from), eventId: event.id };
  }

  it("inserts the rendered document with insertOne", async () => {
    const {
      run: result,
      writes,
      eventId,
    } = await run({
      operation: "insertOne",
      document:
        '{"orderId":"{{payload.id}}","total":"{{payload.total}}","customer":"{{payload.customer}}","event":"{{event.id}}","status":"{{response.status}}","at":{"$date":"2026-01-01T00:00:00Z"}}',
    });
    expect(result).toMatchObject({ status: "success", tries: 1 });
    expect(writes).toHaveLength(1);
    const [insert] = writes;
    expect(insert).toMatchObject({
      name: "insert",
      db: "shop",
      body: { insert: "orders", ordered: true },
    });
    const [doc] = (insert?.body.documents ?? []) as Array<Record<string, unknown>>;
    expect(String(doc?._id)).toMatch(/^[0-9a-f]{24}$/);
    const { _id, ...rest } = doc ?? {};
    expect(rest).toEqual({
      orderId: "A-1",
      total: 12.5,
      customer: { name: "Ada" },
      event: eventId,
      status: 200,
      at: new Date("2026-01-01T00:00:00Z"),
    });
    expect(JSON.parse(result?.response ?? "{}")).toEqual({ insertedId: String(_id) });
  });

  it("updates one document with the rendered filter, a plain document as $set", async () => {
    const { writes } = await run({
      operation: "updateOne",
      filter: '{"orderId":"{{payload.id}}"}',
      document: '{"paid":true,"by":"{{payload.customer.name}}"}',
    });
    expect(writes.map((w) => [w.name, w.body.updates])).toEqual([
      ["update", [{ q: { orderId: "A-1" }, u: { $set: { paid: true, by: "Ada" } } }]],
    ]);
  });

  it("keeps update operators as written, and replaces a whole document with replaceOne", async () => {
    const inc = await run({
      operation: "updateOne",
      filter: '{"orderId":"{{payload.id}}"}',
      document: '{"$inc":{"count":1}}',
    });
    expect(inc.writes[0]?.body.updates).toEqual([
      { q: { orderId: "A-1" }, u: { $inc: { count: 1 } } },
    ]);
    const replace = await run({
      operation: "replaceOne",
      filter: '{"orderId":"{{payload.id}}"}',
      document: '{"orderId":"{{payload.id}}","v":2}',
    });
    expect(replace.writes[0]?.body.updates).toEqual([
      { q: { orderId: "A-1" }, u: { orderId: "A-1", v: 2 } },
    ]);
  });

  it("ends the run on a server error without retrying", async () => {
    mongo.failNext("insert", { code: 11000, errmsg: "E11000 duplicate key error" });
    const { run: result } = await run({ operation: "insertOne", document: '{"a":1}' });
    expect(result).toMatchObject({ status: "failed", tries: 1 });
    expect(result?.error).toMatch(/^MongoDB: E11000 duplicate key error/);
  });

  it("never puts the URI's password in a recorded error", async () => {
    const { run: result } = await run(
      { operation: "insertOne", document: '{"a":1}' },
      "mongodb://app:hunter2secret@127.0.0.1:1/?serverSelectionTimeoutMS=200&connectTimeoutMS=200",
    );
    expect(result?.status).toBe("failed");
    expect(result?.error).toMatch(/^MongoDB: /);
    expect(result?.error).not.toMatch(/hunter2/);
  });
});

describe("mongo actions against private addresses", () => {
  let h: WorkerHarness;
  let mongo: MongoWireServer;
  beforeAll(async () => {
    mongo = await startMongoWireServer();
    h = await startWorkerHarness({ ALLOW_PRIVATE_TARGETS: "false" });
  });
  afterAll(async () => {
    await h.close();
    await mongo.close();
  });

  it("refuses a loopback server before connecting", async () => {
    const credentialId = await insertCredential(h, "mongodb", { connectionUri: mongo.uri });
    const webhook = await h.createWebhook({ targetUrl: "" });
    await createNode(
      h,
      "mongoAction",
      { credentialId, database: "shop", collection: "orders", document: '{"a":1}' },
      [fromWebhook(webhook.id)],
    );
    const event = await h.createEvent(webhook);
    const [result] = await waitForActionRuns(h, event.id, 1);
    expect(result).toMatchObject({ status: "failed", tries: 1 });
    expect(result?.error).toMatch(/target refused: 127.0.0.1/);
    expect(mongo.commands).toEqual([]);
  });
});

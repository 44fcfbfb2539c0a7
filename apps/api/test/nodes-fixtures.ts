import { events, pipelineNodes } from "@hookflow/db";
import { newId, newPrefixedId } from "@hookflow/domain";
import { FAMILIES, type FamilyConfig, type FamilyKey } from "@hookflow/pipeline";
import { insertWebhookFixture, type WebhookFixture, waitUntil } from "@hookflow/testing";
import { Redis } from "ioredis";
import type { ApiHarness } from "./harness.js";

/** Rows and helpers shared by the node, canvas, time-travel and contract-health suites. */

type Db = ApiHarness["database"]["db"];

export async function insertWebhookRow(
  db: Db,
  ownerId: string,
  values: Partial<WebhookFixture> = {},
): Promise<string> {
  const { row } = await insertWebhookFixture(db, {
    ownerId,
    name: "fixture webhook",
    targetUrl: "http://127.0.0.1:9/hook",
    ...values,
  });
  return row.id;
}

export async function insertEventRow(
  db: Db,
  webhookId: string,
  payload: unknown,
  values: Partial<typeof events.$inferInsert> = {},
): Promise<string> {
  const id = newId("event");
  await db.insert(events).values({
    id,
    webhookId,
    body: JSON.stringify(payload),
    headers: { "content-type": "application/json" },
    ...values,
  });
  return id;
}

/**
 * Stores a node straight in the table (family defaults applied, config validated), bypassing the
 * API's write checks: data as an older version could have stored it.
 */
export async function insertNodeRow<F extends FamilyKey>(
  db: Db,
  owner: { ownerId: string; organizationId?: string | null },
  family: F,
  config: Partial<FamilyConfig<F>>,
  inputNodes: Array<{ nodeType: string; nodeId: string }> = [],
): Promise<string> {
  const definition = FAMILIES[family];
  const id = newPrefixedId(definition.idPrefix);
  await db.insert(pipelineNodes).values({
    id,
    family,
    ownerId: owner.ownerId,
    organizationId: owner.organizationId ?? null,
    name: `legacy ${family}`,
    config: definition.config.parse({ ...definition.defaults, ...config }) as Record<
      string,
      unknown
    >,
    inputNodes,
  });
  return id;
}

/** POSTs a node and returns its record; throws with the answer when it is not 201. */
export async function createNode(
  api: ApiHarness,
  token: string,
  path: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Record<string, any>> {
  const res = await api.call("POST", `/api/${path}`, { token, body, headers });
  if (res.status !== 201) {
    throw new Error(`create ${path} failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body;
}

export function webhookInput(id: string) {
  return { nodeType: "webhook", nodeId: id };
}

/** Collects every message published on a channel until `close`. */
export async function listenTo(
  url: string,
  channel: string,
): Promise<{ messages: unknown[]; close: () => void }> {
  const subscriber = new Redis(url);
  await subscriber.subscribe(channel);
  const messages: unknown[] = [];
  subscriber.on("message", (_channel: string, text: string) => messages.push(JSON.parse(text)));
  return { messages, close: () => subscriber.disconnect() };
}

/** Waits until `check` passes (Redis pub/sub delivers asynchronously); fails with its last error. */
export async function eventually(check: () => void, timeoutMs = 2_000): Promise<void> {
  let failure: unknown;
  await waitUntil(
    () => {
      try {
        check();
        return true;
      } catch (error) {
        failure = error;
        return undefined;
      }
    },
    { timeoutMs, intervalMs: 20, describe: () => String(failure) },
  ).catch((timedOut: unknown) => {
    throw failure ?? timedOut;
  });
}

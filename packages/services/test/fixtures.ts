import { type Database, events, findEventWithOwner, insertUser } from "@hookflow/db";
import { newId } from "@hookflow/domain";
import { insertWebhookFixture, type WebhookFixture } from "@hookflow/testing";
import type { ServiceContext } from "../src/context.js";
import type { Actor } from "../src/index.js";
import { actorOf } from "./service-context.js";

/** Rows the suites of this package write straight to the database, and what they read back. */

/** A user who can act (not log in: the password hash is none); its id. */
async function insertTestUser(db: Database, name = "Test"): Promise<string> {
  const id = newId("user");
  await insertUser(db, {
    id,
    email: `${name.toLowerCase()}-${id.toLowerCase()}@example.test`,
    name,
    passwordHash: "x",
    now: new Date(),
  });
  return id;
}

/** Two users, each acting with a session: the owner of a suite's rows and a stranger to them. */
export async function insertTwoActors(db: Database): Promise<{ alice: Actor; bob: Actor }> {
  return {
    alice: actorOf(await insertTestUser(db, "alice")),
    bob: actorOf(await insertTestUser(db, "bob")),
  };
}

/** A webhook of `ownerId` aimed at a closed port; its id. */
export async function insertTestWebhook(
  db: Database,
  ownerId: string,
  values: Partial<WebhookFixture> = {},
): Promise<string> {
  const { row } = await insertWebhookFixture(db, {
    name: "hook",
    targetUrl: "http://127.0.0.1:9/hook",
    ...values,
    ownerId,
  });
  return row.id;
}

/** An event of the webhook, in the status given, with a small JSON body; its id. */
export async function insertTestEvent(
  db: Database,
  webhookId: string,
  status: "pending" | "failed" | "delivered",
): Promise<string> {
  const id = newId("event");
  await db.insert(events).values({
    id,
    webhookId,
    status,
    body: JSON.stringify({ n: 1 }),
    headers: { "content-type": "application/json" },
  });
  return id;
}

export async function eventStatus(db: Database, id: string): Promise<string | undefined> {
  return (await findEventWithOwner(db, id))?.event.status;
}

/** The event's delivery job, on whichever lane it was queued. */
export async function findDeliveryJob(ctx: Pick<ServiceContext, "queues">, eventId: string) {
  const found = await Promise.all([...ctx.queues.values()].map((q) => q.getJob(eventId)));
  return found.find((job) => job !== undefined);
}

import { parseArgs } from "node:util";
import { EVENT_STATUSES } from "@hookflow/domain";
import type { EventQuery, HookflowClient } from "@hookflow/sdk";
import { ClientUsageError, type Io, printJson, printTable } from "./output.js";
import { type ClientContext, parseOptions, positiveInt, runClient } from "./run-client.js";
import { describeStreamMessage } from "./stream-lines.js";

const EVENTS_USAGE = `Usage: hookflow events list [--webhook <id>] [--status <status>] [--type <event type>]
                           [--page <n>] [--limit <n>] [--json]
       hookflow events get <event id> [--json]
       hookflow events tail <webhook id> [--json]      new events and their steps, until Ctrl-C
       hookflow events replay <event id> [--json]
       hookflow events replay-all <webhook id> [--no-wait] [--json]
                                                      replays every failed event, then follows
                                                      them until none is pending (progress on stderr)
`;

const STATUSES = EVENT_STATUSES;

function statusOf(value: string | undefined): EventQuery["status"] {
  if (value === undefined) return undefined;
  const found = STATUSES.find((status) => status === value);
  if (!found) throw new ClientUsageError(`--status must be one of ${STATUSES.join(", ")}`);
  return found;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

async function countOf(client: HookflowClient, webhookId: string, status: EventQuery["status"]) {
  return (await client.events.list({ webhookId, status, limit: 1 })).total;
}

/** Replays a webhook's failed events, then reports progress until none is pending or retrying. */
async function replayAll(
  ctx: ClientContext,
  client: HookflowClient,
  webhookId: string,
  options: { wait: boolean; json: boolean },
): Promise<number> {
  const failedBefore = await countOf(client, webhookId, "failed");
  ctx.io.stderr.write(`Replaying ${failedBefore} failed events of ${webhookId}...\n`);
  const { queued } = await client.events.replayAll(webhookId);
  ctx.io.stderr.write(`Queued ${queued} events\n`);
  let waiting = queued;
  let last = "";
  while (options.wait && waiting > 0 && !ctx.signal.aborted) {
    await sleep(1000, ctx.signal);
    const [pending, retrying, failed] = await Promise.all([
      countOf(client, webhookId, "pending"),
      countOf(client, webhookId, "retrying"),
      countOf(client, webhookId, "failed"),
    ]);
    waiting = pending + retrying;
    const line = `  ${Math.max(0, queued - waiting)}/${queued} settled, ${waiting} waiting, ${failed} failed`;
    if (line !== last) ctx.io.stderr.write(`${line}\n`);
    last = line;
  }
  const failedAfter = await countOf(client, webhookId, "failed");
  const summary = { webhookId, queued, failedBefore, failedAfter, waiting };
  if (options.json) printJson(ctx.io, summary);
  else
    ctx.io.stdout.write(`Replayed ${queued} events of ${webhookId}: ${failedAfter} failed now\n`);
  return 0;
}

async function tail(ctx: ClientContext, client: HookflowClient, webhookId: string, json: boolean) {
  const stream = client.webhooks.stream(webhookId, {
    signal: ctx.signal,
    onOpen: () => ctx.io.stderr.write(`Ready: following ${webhookId} (Ctrl-C to stop)\n`),
  });
  for await (const message of stream) {
    ctx.io.stdout.write(
      json ? `${JSON.stringify(message)}\n` : `${describeStreamMessage(message)}\n`,
    );
  }
  return 0;
}

function printEvents(io: Io, rows: Awaited<ReturnType<HookflowClient["events"]["list"]>>) {
  printTable(
    io,
    ["ID", "STATUS", "TYPE", "ATTEMPTS", "LAST", "CREATED"],
    rows.items.map((e) => [
      e.id,
      e.status,
      e.eventType ?? "-",
      String(e.attemptCount),
      e.lastStatusCode === null ? "-" : String(e.lastStatusCode),
      e.createdAt,
    ]),
  );
  io.stderr.write(`${rows.items.length} of ${rows.total}\n`);
}

export function events(ctx: ClientContext, args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  return runClient(ctx, EVENTS_USAGE, async (client) => {
    const { values, positionals } = parseOptions(() =>
      parseArgs({
        args: rest,
        options: {
          webhook: { type: "string" },
          status: { type: "string" },
          type: { type: "string" },
          page: { type: "string" },
          limit: { type: "string" },
          json: { type: "boolean" },
          "no-wait": { type: "boolean" },
        },
        strict: true,
        allowPositionals: true,
      }),
    );
    const json = values.json ?? false;
    const id = () => {
      const [value] = positionals;
      if (!value) throw new ClientUsageError(`events ${sub} needs an id`);
      return value;
    };
    switch (sub) {
      case "list": {
        const page = await client.events.list({
          webhookId: values.webhook,
          status: statusOf(values.status),
          eventType: values.type,
          page: positiveInt(values.page, "--page"),
          limit: positiveInt(values.limit, "--limit"),
        });
        if (json) printJson(ctx.io, page);
        else printEvents(ctx.io, page);
        return 0;
      }
      case "get": {
        const event = await client.events.get(id());
        if (json) printJson(ctx.io, event);
        else printJson(ctx.io, event);
        return 0;
      }
      case "tail":
        return tail(ctx, client, id(), json);
      case "replay": {
        const eventId = id();
        const result = await client.events.replay(eventId);
        if (json) printJson(ctx.io, { eventId, ...result });
        else ctx.io.stdout.write(`Replaying ${eventId}\n`);
        return 0;
      }
      case "replay-all":
        return replayAll(ctx, client, id(), { wait: !values["no-wait"], json });
      default:
        throw new ClientUsageError(`unknown events command: ${sub ?? "(none)"}`);
    }
  });
}

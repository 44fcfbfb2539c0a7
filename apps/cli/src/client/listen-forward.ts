import { parseArgs } from "node:util";
import { type HookflowClient, signWebhook } from "@hookflow/sdk";
import { ClientUsageError } from "./output.js";
import { type ClientContext, parseOptions, runClient } from "./run-client.js";

const LISTEN_USAGE = `Usage: hookflow listen <webhook id> --forward-to <url> [--json]

Forwards each new event of the webhook to a local URL as Hookflow starts it, and prints one
line per event with the local answer. What is forwarded: a POST of the event's payload as JSON
(the JSON Hookflow stored, re-serialized: whitespace of the original is not kept), with the
sender's stored headers (Hookflow never stores signature, authorization or cookie headers), and
X-Hookflow-Event-Id, X-Hookflow-Webhook-Id and fresh X-Hookflow-Signature and Standard Webhooks
signatures made with the webhook's signing secret, so verifyWebhook accepts it locally. The
payload is the one received, before the webhook's node graph. Runs until Ctrl-C.
`;

/** Sender headers never passed on: hop-by-hop ones and those fetch sets itself. */
const SKIPPED = new Set([
  "host",
  "content-length",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "accept-encoding",
  "upgrade",
  "te",
  "trailer",
  "proxy-connection",
]);

const FORWARD_TIMEOUT_MS = 10_000;
/** Feed ids remembered to skip the event a resumed stream sends again. */
const SEEN_MAX = 1000;

interface Forwarded {
  eventId: string;
  feedId: string;
  eventType: string | null;
  status: number | null;
  latencyMs: number;
  error: string | null;
}

async function forward(
  client: HookflowClient,
  target: string,
  secret: string,
  webhookId: string,
  message: { eventId: string; feedId: string },
): Promise<Forwarded> {
  const event = await client.events.get(message.eventId);
  const body = JSON.stringify(event.payload);
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers)) {
    if (!SKIPPED.has(name.toLowerCase())) headers.set(name, value);
  }
  headers.set("content-type", "application/json");
  headers.set("x-hookflow-webhook-id", webhookId);
  const signed = await signWebhook(secret, body, { eventId: event.id });
  for (const [name, value] of Object.entries(signed)) headers.set(name, value);
  const started = performance.now();
  const result = { eventId: event.id, feedId: message.feedId, eventType: event.eventType };
  try {
    const response = await fetch(target, {
      method: "POST",
      headers,
      body,
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await response.arrayBuffer().catch(() => undefined);
    const latencyMs = Math.round(performance.now() - started);
    return { ...result, status: response.status, latencyMs, error: null };
  } catch (error) {
    const latencyMs = Math.round(performance.now() - started);
    const cause = error instanceof Error ? (error.cause ?? error) : error;
    const text = cause instanceof Error ? cause.message : String(cause);
    return { ...result, status: null, latencyMs, error: text };
  }
}

function line(result: Forwarded, target: string): string {
  const time = new Date().toISOString().slice(11, 19);
  const type = result.eventType ? ` ${result.eventType}` : "";
  const answer =
    result.status === null ? `error: ${result.error}` : `${result.status} (${result.latencyMs} ms)`;
  return `${time} ${result.eventId}${type} -> POST ${target} ${answer}`;
}

export function listen(ctx: ClientContext, args: string[]): Promise<number> {
  return runClient(ctx, LISTEN_USAGE, async (client) => {
    const { values, positionals } = parseOptions(() =>
      parseArgs({
        args,
        options: { "forward-to": { type: "string" }, json: { type: "boolean" } },
        strict: true,
        allowPositionals: true,
      }),
    );
    const [webhookId] = positionals;
    const target = values["forward-to"];
    if (!webhookId) throw new ClientUsageError("listen needs a webhook id");
    if (!target || !/^https?:\/\//.test(target)) {
      throw new ClientUsageError("--forward-to needs an http:// or https:// URL");
    }
    const webhook = await client.webhooks.get(webhookId);
    const seen = new Set<string>();
    const stream = client.webhooks.stream(webhook.id, {
      signal: ctx.signal,
      onOpen: () =>
        ctx.io.stderr.write(
          `Ready: forwarding new events of ${webhook.id} to ${target} (Ctrl-C to stop)\n`,
        ),
      onReconnect: () => ctx.io.stderr.write("Reconnecting...\n"),
    });
    for await (const message of stream) {
      if (message.type !== "event" || seen.has(message.feedId)) continue;
      seen.add(message.feedId);
      if (seen.size > SEEN_MAX) seen.delete(seen.values().next().value ?? "");
      const result = await forward(client, target, webhook.signingSecret, webhook.id, message);
      ctx.io.stdout.write(
        values.json ? `${JSON.stringify(result)}\n` : `${line(result, target)}\n`,
      );
    }
    return 0;
  });
}

import { parseArgs } from "node:util";
import type { Webhook } from "@hookflow/sdk";
import { ClientUsageError, type Io, printJson, printTable } from "./output.js";
import { type ClientContext, parseOptions, positiveInt, runClient } from "./run-client.js";

const WEBHOOKS_USAGE = `Usage: hookflow webhooks list [--page <n>] [--limit <n>] [--json]
       hookflow webhooks create --name <name> [--target-url <url>] [--description <text>] [--json]
       hookflow webhooks get <webhook id> [--json]
`;

function printWebhook(io: Io, webhook: Webhook): void {
  printTable(
    io,
    ["FIELD", "VALUE"],
    [
      ["id", webhook.id],
      ["name", webhook.name],
      ["active", String(webhook.isActive)],
      ["health", webhook.healthStatus],
      ["target", webhook.targetUrl || "(none)"],
      ["ingress", webhook.ingressUrl],
      ["signing secret", webhook.signingSecret],
      ["created", webhook.createdAt],
    ],
  );
}

export function webhooks(ctx: ClientContext, args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  return runClient(ctx, WEBHOOKS_USAGE, async (client) => {
    const { values, positionals } = parseOptions(() =>
      parseArgs({
        args: rest,
        options: {
          page: { type: "string" },
          limit: { type: "string" },
          name: { type: "string" },
          "target-url": { type: "string" },
          description: { type: "string" },
          json: { type: "boolean" },
        },
        strict: true,
        allowPositionals: true,
      }),
    );
    switch (sub) {
      case "list": {
        const page = await client.webhooks.list({
          page: positiveInt(values.page, "--page"),
          limit: positiveInt(values.limit, "--limit"),
        });
        if (values.json) printJson(ctx.io, page);
        else {
          printTable(
            ctx.io,
            ["ID", "NAME", "ACTIVE", "HEALTH", "TARGET"],
            page.items.map((w) => [w.id, w.name, String(w.isActive), w.healthStatus, w.targetUrl]),
          );
          ctx.io.stderr.write(`${page.items.length} of ${page.total}\n`);
        }
        return 0;
      }
      case "create": {
        if (!values.name) throw new ClientUsageError("--name is required");
        const webhook = await client.webhooks.create({
          name: values.name,
          ...(values["target-url"] === undefined ? {} : { targetUrl: values["target-url"] }),
          ...(values.description === undefined ? {} : { description: values.description }),
        });
        if (values.json) printJson(ctx.io, webhook);
        else printWebhook(ctx.io, webhook);
        return 0;
      }
      case "get": {
        const [id] = positionals;
        if (!id) throw new ClientUsageError("webhooks get needs a webhook id");
        const webhook = await client.webhooks.get(id);
        if (values.json) printJson(ctx.io, webhook);
        else printWebhook(ctx.io, webhook);
        return 0;
      }
      default:
        throw new ClientUsageError(`unknown webhooks command: ${sub ?? "(none)"}`);
    }
  });
}

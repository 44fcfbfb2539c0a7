import type { FamilyConfig } from "@hookflow/pipeline";
import {
  type ActionExecutor,
  type ActionResult,
  type ActionRunInput,
  isRetryableStatus,
  permanentFailure,
} from "../action-types.js";

type HttpInput = ActionRunInput<"httpAction">;

/** `Authorization` from a bearer or basic credential, or the failure to open it. */
async function authorization(input: HttpInput): Promise<{ value?: string; error?: string }> {
  const { credentialId } = input.action.config;
  if (credentialId === undefined) return {};
  const opened = await input.ports.openCredential(credentialId, input.action);
  if (!opened.ok) return { error: opened.error };
  const { credential } = opened;
  switch (credential.type) {
    case "bearer":
      return { value: `Bearer ${credential.data.token}` };
    case "basic": {
      const pair = `${credential.data.username}:${credential.data.password}`;
      return { value: `Basic ${Buffer.from(pair, "utf8").toString("base64")}` };
    }
    default:
      return { error: `credential ${credentialId} is not a bearer or basic credential` };
  }
}

/** The body and its default content type: a JSON template when the body is JSON, else text. */
async function renderBody(
  input: HttpInput,
  config: FamilyConfig<"httpAction">,
): Promise<{ ok: true; body: string; type?: string } | { ok: false; error: string }> {
  if (config.body === undefined || config.body === "") return { ok: true, body: "" };
  const ids = idsOf(input);
  let json = false;
  try {
    JSON.parse(config.body);
    json = true;
  } catch {
    json = false;
  }
  if (json) {
    const rendered = input.ports.render.json(config.body, input.context);
    return rendered.ok ? { ok: true, body: rendered.text, type: "application/json" } : rendered;
  }
  const rendered = await input.ports.render.text(config.body, input.context, ids);
  return rendered.ok
    ? { ok: true, body: rendered.text, type: "text/plain; charset=utf-8" }
    : rendered;
}

function idsOf(input: HttpInput) {
  return {
    eventId: input.context.event.id,
    webhookId: input.context.webhook.id,
    nodeId: input.action.id,
    nodeName: input.action.name,
  };
}

/**
 * `http-actions`: the templated request through the delivery's HTTP client (its timeout, 4 KB
 * response cap and private-target guard). `Idempotency-Key` is the run's id, the same on every
 * try, so a receiver can drop a repeat after a crash.
 */
export const httpActionExecutor: ActionExecutor<"httpAction"> = {
  run: async (input): Promise<ActionResult> => {
    const { config } = input.action;
    const ids = idsOf(input);
    const url = await input.ports.render.text(config.url, input.context, ids);
    if (!url.ok) return permanentFailure(url.error);
    const headers: Record<string, string> = {};
    for (const [name, template] of Object.entries(config.headers)) {
      const value = await input.ports.render.text(template, input.context, ids);
      if (!value.ok) return permanentFailure(`headers.${name}: ${value.error}`);
      if (/[\r\n\0]/.test(value.text)) {
        return permanentFailure(`headers.${name}: the rendered value holds a line break`);
      }
      headers[name.toLowerCase()] = value.text;
    }
    const body = await renderBody(input, config);
    if (!body.ok) return permanentFailure(body.error);
    if (body.type && headers["content-type"] === undefined) headers["content-type"] = body.type;
    const auth = await authorization(input);
    if (auth.error) return permanentFailure(auth.error);
    if (auth.value) headers.authorization = auth.value;
    headers["idempotency-key"] = input.runId;
    headers["x-hookflow-event-id"] = input.context.event.id;
    headers["user-agent"] ??= "Hookflow-Action/1";
    const result = await input.ports.http.send({
      url: url.text,
      method: config.method,
      headers,
      body: body.body,
    });
    if (result.refused) return permanentFailure(result.error ?? "target refused");
    if (result.statusCode >= 200 && result.statusCode < 300) {
      return { ok: true, statusCode: result.statusCode, response: result.responseBody };
    }
    return {
      ok: false,
      error: result.error ?? `HTTP ${result.statusCode}`,
      retryable: isRetryableStatus(result.statusCode),
      statusCode: result.statusCode,
      response: result.responseBody,
    };
  },
};

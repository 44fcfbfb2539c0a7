import { matchesAll, renderJsonTemplate } from "@hookflow/domain";
import type { CachedTarget } from "./target-cache.js";

export type TargetPayload =
  | { kind: "skip" }
  | { kind: "send"; body: string }
  | { kind: "fail"; error: string };

/**
 * The context a target's template reads: the payload's own fields at the root, and the whole
 * payload as `payload` too (unless the payload has a field of that name, which wins), so both
 * `{{order.id}}` and `{{payload.order.id}}` work (docs/decisions.md, "Additional targets").
 */
export function templateContext(payload: unknown): unknown {
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) {
    return { payload };
  }
  if (Object.hasOwn(payload, "payload")) return payload;
  return { ...(payload as Record<string, unknown>), payload };
}

/**
 * What one target receives of an event (pure): nothing when its filters do not match, else the
 * event's delivery body, or its template's rendering (bounded by `maxChars`: a rendering past it
 * fails this target's delivery, never the event's).
 */
export function targetPayload(
  target: Pick<CachedTarget, "filters" | "template">,
  payload: unknown,
  body: string,
  maxChars: number,
): TargetPayload {
  if (!matchesAll(payload, target.filters)) return { kind: "skip" };
  if (target.template === null) return { kind: "send", body };
  const rendered = renderJsonTemplate(target.template, templateContext(payload), maxChars);
  if (!rendered.ok) {
    return {
      kind: "fail",
      error: `payloadTransform: the rendered payload is longer than ${rendered.limit} characters`,
    };
  }
  return { kind: "send", body: rendered.json };
}

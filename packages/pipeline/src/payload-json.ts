/**
 * The JSON text of payload objects, computed once. A node's output is streamed to watchers,
 * recorded in `event_step_batches` and measured against the step payload limit: each of those needs its
 * JSON text, and a transform's output arrives as JSON text already. Payloads are never mutated
 * once a node produced them (nodes build new values), so the text stays true.
 */
const known = new WeakMap<object, string>();

/** Remembers `json` as the text of `payload` (a value just parsed from, or serialized to, it). */
export function rememberPayloadJson(payload: unknown, json: string): void {
  if (typeof payload === "object" && payload !== null) known.set(payload, json);
}

/** The JSON text remembered for `payload`, if any (nothing is serialized). */
export function knownPayloadJson(payload: unknown): string | undefined {
  return typeof payload === "object" && payload !== null ? known.get(payload) : undefined;
}

/** The payload's JSON text (undefined for values JSON cannot hold, such as undefined). */
export function payloadJson(payload: unknown): string | undefined {
  if (typeof payload !== "object" || payload === null) return JSON.stringify(payload);
  const cached = known.get(payload);
  if (cached !== undefined) return cached;
  const text = JSON.stringify(payload);
  if (text !== undefined) known.set(payload, text);
  return text;
}

/**
 * The JSON text a step carries as `lastPayload`: the payload's text, or, above `limitBytes`, a
 * marker `{"truncated":true,"bytes":N}` so a huge output is neither streamed nor stored.
 */
export function boundedPayloadJson(payload: unknown, limitBytes: number): string | undefined {
  const text = payloadJson(payload);
  if (text === undefined) return undefined;
  // A UTF-8 character takes at most 3 bytes per UTF-16 unit: short texts need no count.
  if (text.length * 3 <= limitBytes) return text;
  const bytes = Buffer.byteLength(text, "utf8");
  return bytes > limitBytes ? `{"truncated":true,"bytes":${bytes}}` : text;
}

/**
 * Serializes `value` with `rawJson` spliced in as its last property `key`: the object's own
 * fields are stringified, the raw text is not stringified again. `value` must serialize to an
 * object and must not hold `key` itself.
 */
export function stringifyWithRaw(value: object, key: string, rawJson: string | undefined): string {
  const text = JSON.stringify(value);
  if (rawJson === undefined) return text;
  const field = `${JSON.stringify(key)}:${rawJson}}`;
  return text === "{}" ? `{${field}` : `${text.slice(0, -1)},${field}`;
}

export const TRANSFORM_MODES = ["handlebars", "jq", "javascript"] as const;
export type TransformMode = (typeof TRANSFORM_MODES)[number];

/** What user code may learn about the event besides its payload. */
export interface TransformContext {
  eventId: string;
  webhookId: string;
  nodeId: string;
}

export interface TransformInput {
  mode: TransformMode;
  /** The node's `template`: a Handlebars template, a jq program or JavaScript source. */
  template: string;
  /** The JSON payload reaching the node. */
  payload: unknown;
  /** `payload`'s JSON text when the caller has it already (it is not serialized again). */
  payloadJson?: string;
  context: TransformContext;
}

/**
 * The outcome of one transform. User-code problems (syntax errors, exceptions, time and memory
 * limits, output that is too large) are `ok: false` with a message meant for the event's step;
 * `run` rejects only on programming errors (a closed runner, a payload that is not JSON).
 */
export type TransformResult = TransformOutcome & { durationMs: number };

/** A result before the runner adds its timing. */
export type TransformOutcome = { ok: true; output: unknown } | { ok: false; error: string };

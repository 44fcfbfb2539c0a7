import type { TransformOutput, TransformPort } from "./engine/types.js";
import type { TransformNodeConfig } from "./families/definitions.js";
import { jsonTextNestsDeeperThan, MAX_PAYLOAD_DEPTH } from "./payload-depth.js";
import { knownPayloadJson, rememberPayloadJson } from "./payload-json.js";

const TOO_DEEP = `the transform output nests more than ${MAX_PAYLOAD_DEPTH} levels deep`;

/** What the engine needs of @hookflow/transforms' runner (`createTransformRunner`). */
export interface TransformRunnerLike {
  run: (input: {
    mode: TransformNodeConfig["transformMode"];
    template: string;
    payload: unknown;
    payloadJson?: string;
    context: { eventId: string; webhookId: string; nodeId: string };
  }) => Promise<
    | { ok: true; output: unknown; durationMs: number }
    | { ok: false; error: string; durationMs: number }
  >;
}

/**
 * The engine's transform port over the sandboxed runner, shared by the worker and time travel so
 * both produce the same bytes: a Handlebars render that is not JSON goes out as its text; every
 * other output as its JSON text. An output with no JSON form (a JavaScript transform returning
 * undefined) fails the step.
 */
export function createTransformRunnerPort(runner: TransformRunnerLike): TransformPort {
  return {
    run: async ({ mode, template, payload, context }): Promise<TransformOutput> => {
      const known = knownPayloadJson(payload);
      const result = await runner.run({
        mode,
        template,
        payload,
        payloadJson: known,
        context: { eventId: context.eventId, webhookId: context.webhookId, nodeId: context.nodeId },
      });
      if (!result.ok) return { ok: false, error: result.error };
      const { output } = result;
      if (mode === "handlebars" && typeof output === "string") {
        return { ok: true, payload: output, body: output };
      }
      // Always serialized here, never taken from the sandbox as text: it comes from a context
      // user code ran in (hardened, but not trusted as written), and it travels in step messages.
      let body: string | undefined;
      try {
        body = output === undefined ? undefined : JSON.stringify(output);
      } catch (error) {
        // Nested thousands of levels deep, the serializer runs out of stack.
        if (error instanceof RangeError) return { ok: false, error: TOO_DEEP };
        throw error;
      }
      if (body === undefined) return { ok: false, error: "the transform produced no value" };
      // Later nodes, steps and parks serialize it again, some deeper in a stack (payload-depth).
      if (jsonTextNestsDeeperThan(body, MAX_PAYLOAD_DEPTH)) return { ok: false, error: TOO_DEEP };
      rememberPayloadJson(output, body);
      return { ok: true, payload: output, body };
    },
  };
}

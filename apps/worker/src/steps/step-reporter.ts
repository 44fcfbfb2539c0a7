import { boundedPayloadJson, stringifyWithRaw } from "@hookflow/pipeline";
import type {
  PipelineDone,
  PipelineParked,
  PipelineStep,
  StepMessage,
  StepPublisher,
} from "@hookflow/queue";
import { truncateUtf8 } from "./truncate.js";

/** A step as a node reports it; the event id and time are filled in. */
type StepInput = Omit<PipelineStep, "eventId" | "at">;

type DeliveryStatus = PipelineDone["body"]["deliveryStatus"];

interface DoneInput {
  deliveryStatus: DeliveryStatus;
  statusCode?: number;
  latencyMs?: number;
  /** The target's response body; cut to 4 KB. */
  response?: string;
  /** Defaults from `deliveryStatus`: `failed` -> 502, else 200. Schema validation passes 422. */
  status?: PipelineDone["status"];
}

type ParkedFlags = Omit<PipelineParked, "eventId">;

/**
 * How the worker reports an event's pipeline to watchers (streams and sync-mode ingress
 * requests). Fire and forget: nothing awaits Redis on the delivery path, yet one event's messages
 * reach Redis in the order they were reported. A failed publish is logged, never thrown.
 */
export interface StepReporter {
  step: (eventId: string, step: StepInput) => void;
  /** A pipeline step already written as JSON (`stepJson` of @hookflow/pipeline). */
  stepJson: (eventId: string, json: string) => void;
  /** The event settled (delivered, failed, filtered, cancelled): watchers stop here. */
  done: (eventId: string, done: DoneInput) => void;
  /** The event waits at a node (approval, merge, delay): sync mode answers with the flag. */
  parked: (eventId: string, flags: ParkedFlags) => void;
  /**
   * Someone is waiting for this event (its webhook answers in sync mode): its messages skip the
   * gather window until its `done` or `parked`, or for at most {@link EXPEDITE_MS}.
   */
  expedite: (eventId: string) => void;
  /** Resolves once everything reported so far reached Redis (or failed). */
  flush: () => Promise<void>;
}

/** The target's response in `done` and sync mode is its first 4 KB. */
const RESPONSE_LIMIT_BYTES = 4096;
/** A node output above this is not streamed; watchers get its size instead. */
export const STEP_PAYLOAD_LIMIT_BYTES = 64 * 1024;
/** A sync-mode request waits 120 s at most; an expedited event is forgotten a little later. */
export const EXPEDITE_MS = 130_000;

export interface CreateStepReporterOptions {
  publisher: StepPublisher;
  now: () => Date;
}

export function createStepReporter(options: CreateStepReporterOptions): StepReporter {
  const { publisher, now } = options;
  /** Expedited event ids and when they stop being so, oldest first (insertion order). */
  const expedited = new Map<string, number>();

  const isUrgent = (eventId: string): boolean => {
    if (expedited.size === 0) return false;
    const nowMs = now().getTime();
    for (const [id, until] of expedited) {
      if (until > nowMs) break;
      expedited.delete(id);
    }
    return expedited.has(eventId);
  };

  const send = (eventId: string, message: StepMessage, last: boolean) => {
    const urgent = isUrgent(eventId);
    if (last && urgent) expedited.delete(eventId);
    publisher.send(eventId, message, { urgent });
  };

  return {
    step: (eventId, input) => {
      const { lastPayload, ...rest } = input;
      const step = { eventId, ...rest, at: now().toISOString() };
      // The payload's text is spliced in, not serialized again (see payload-json).
      const payload =
        lastPayload === undefined
          ? undefined
          : boundedPayloadJson(lastPayload, STEP_PAYLOAD_LIMIT_BYTES);
      publisher.sendJson(
        eventId,
        `{"kind":"step","step":${stringifyWithRaw(step, "lastPayload", payload)}}`,
        { urgent: isUrgent(eventId) },
      );
    },
    stepJson: (eventId, json) => {
      publisher.sendJson(eventId, `{"kind":"step","step":${json}}`, { urgent: isUrgent(eventId) });
    },
    done: (eventId, input) => {
      const status = input.status ?? (input.deliveryStatus === "failed" ? 502 : 200);
      send(
        eventId,
        {
          kind: "done",
          done: {
            eventId,
            status,
            body: {
              deliveryStatus: input.deliveryStatus,
              statusCode: input.statusCode ?? 0,
              latencyMs: input.latencyMs ?? 0,
            },
            ...(input.response === undefined
              ? {}
              : { response: truncateUtf8(input.response, RESPONSE_LIMIT_BYTES) }),
          },
        },
        true,
      );
    },
    parked: (eventId, flags) =>
      send(eventId, { kind: "parked", parked: { eventId, ...flags } }, true),
    expedite: (eventId) => {
      expedited.delete(eventId);
      expedited.set(eventId, now().getTime() + EXPEDITE_MS);
    },
    flush: () => publisher.idle(),
  };
}

import type { Logger } from "@hookflow/observability";
import type {
  PipelineDone,
  PipelineParked,
  PipelineStep,
  StepMessage,
  StepPublisher,
} from "@hookflow/queue";
import { truncateUtf8 } from "./truncate.js";

/** A step as a node reports it; the event id and time are filled in. */
export type StepInput = Omit<PipelineStep, "eventId" | "at">;

export type DeliveryStatus = PipelineDone["body"]["deliveryStatus"];

export interface DoneInput {
  deliveryStatus: DeliveryStatus;
  statusCode?: number;
  latencyMs?: number;
  /** The target's response body; cut to 4 KB. */
  response?: string;
  /** Defaults from `deliveryStatus`: `failed` -> 502, else 200. Schema validation passes 422. */
  status?: PipelineDone["status"];
}

export type ParkedFlags = Omit<PipelineParked, "eventId">;

/**
 * How the worker reports an event's pipeline to watchers (streams and sync-mode ingress
 * requests). Fire and forget: nothing awaits Redis on the delivery path, yet one event's messages
 * reach Redis in the order they were reported (one connection, no await in between). A failed
 * publish is logged, never thrown.
 */
export interface StepReporter {
  step: (eventId: string, step: StepInput) => void;
  /** The event settled (delivered, failed, filtered, cancelled): watchers stop here. */
  done: (eventId: string, done: DoneInput) => void;
  /** The event waits at a node (approval, merge, delay): sync mode answers with the flag. */
  parked: (eventId: string, flags: ParkedFlags) => void;
  /** Resolves once everything reported so far reached Redis (or failed). */
  flush: () => Promise<void>;
}

/** The target's response in `done` and sync mode is its first 4 KB (spec). */
export const RESPONSE_LIMIT_BYTES = 4096;
/** A node output above this is not streamed; watchers get its size instead. */
export const STEP_PAYLOAD_LIMIT_BYTES = 64 * 1024;

export interface CreateStepReporterOptions {
  publisher: StepPublisher;
  logger: Logger;
  now: () => Date;
}

function boundedPayload(payload: unknown): unknown {
  if (payload === undefined) return undefined;
  const text = JSON.stringify(payload);
  if (text === undefined) return undefined;
  const bytes = Buffer.byteLength(text, "utf8");
  return bytes > STEP_PAYLOAD_LIMIT_BYTES ? { truncated: true, bytes } : payload;
}

export function createStepReporter(options: CreateStepReporterOptions): StepReporter {
  const { publisher, logger, now } = options;
  let last: Promise<unknown> = Promise.resolve();

  const send = (eventId: string, message: StepMessage) => {
    last = publisher
      .publish(eventId, message)
      .catch((error: unknown) =>
        logger.warn({ err: error, eventId, kind: message.kind }, "could not publish a step"),
      );
  };

  return {
    step: (eventId, input) => {
      const { lastPayload, ...rest } = input;
      const payload = boundedPayload(lastPayload);
      send(eventId, {
        kind: "step",
        step: {
          eventId,
          ...rest,
          ...(payload === undefined ? {} : { lastPayload: payload }),
          at: now().toISOString(),
        },
      });
    },
    done: (eventId, input) => {
      const status = input.status ?? (input.deliveryStatus === "failed" ? 502 : 200);
      send(eventId, {
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
      });
    },
    parked: (eventId, flags) => send(eventId, { kind: "parked", parked: { eventId, ...flags } }),
    flush: async () => {
      await last;
    },
  };
}

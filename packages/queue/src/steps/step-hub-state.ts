import type { Redis } from "ioredis";
import type { RedisKeys } from "../redis-keys.js";
import type { StepEntry } from "./step-entry.js";
import type { CreateStepHubOptions, StepListener } from "./step-hub-types.js";

export type ErrorReport = (error: unknown, context: string) => void;

/** One `watch` call: where its listener has got to in the event's messages. */
export interface Watcher {
  eventId: string;
  listener: StepListener;
  lastSeq: number;
  /** While the buffer is being read, live entries wait here. */
  catchingUp: boolean;
  pending: StepEntry[];
  /** A new read was asked for while one was running (reconnect, gap). */
  again: boolean;
  closed: boolean;
}

/** What a step hub holds between calls: its connections, watchers and subscription. */
export interface StepHubState {
  readonly subscriber: Redis;
  readonly commands: Redis;
  readonly keys: RedisKeys;
  readonly channel: string;
  readonly report: ErrorReport;
  readonly options: CreateStepHubOptions;
  /** Watchers by event id. */
  readonly watchers: Map<string, Set<Watcher>>;
  subscription: Promise<void> | null;
  closed: boolean;
  idleTimer: NodeJS.Timeout | undefined;
  /** The subscriber's handlers, made once so `close` can remove them. */
  readonly onMessage: (from: string, batch: string) => void;
  readonly onReady: () => void;
}

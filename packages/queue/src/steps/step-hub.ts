import { catchUp } from "./step-catch-up.js";
import { fanOut } from "./step-fan-out.js";
import type { StepHubState, Watcher } from "./step-hub-state.js";
import type {
  CreateStepHubOptions,
  StepHub,
  StepListener,
  WatchOptions,
} from "./step-hub-types.js";
import { resubscribeSteps, scheduleIdleUnsubscribe, subscribeSteps } from "./step-subscription.js";

export type {
  CreateStepHubOptions,
  StepHub,
  StepListener,
  WatchOptions,
} from "./step-hub-types.js";

/**
 * The one subscription of a process to the steps channel, fanned out in memory by event id
 * (each channel message is a publish batch: entries separated by newlines).
 * A watcher subscribes first and reads the buffer second, so nothing published in between is
 * missed; sequence numbers drop what both paths delivered. After the subscriber reconnects, or
 * when a live message shows a gap, the watcher reads the buffer again to fill what pub/sub lost.
 */
export function createStepHub(options: CreateStepHubOptions): StepHub {
  const state: StepHubState = {
    subscriber: options.subscriberRedis,
    commands: options.commandRedis,
    keys: options.keys,
    channel: options.keys.stepsChannel,
    report: options.onError ?? (() => {}),
    options,
    watchers: new Map(),
    subscription: null,
    closed: false,
    idleTimer: undefined,
    onMessage: (from, batch) => fanOut(state, from, batch),
    onReady: () => resubscribeSteps(state),
  };
  state.subscriber.on("message", state.onMessage);
  state.subscriber.on("ready", state.onReady);
  return {
    watch: (eventId, watchOptions, listener) => watchEvent(state, eventId, watchOptions, listener),
    ready: () => subscribeSteps(state),
    listenerCount: (eventId) => countListeners(state, eventId),
    close: () => closeStepHub(state),
  };
}

function watchEvent(
  state: StepHubState,
  eventId: string,
  watchOptions: WatchOptions,
  listener: StepListener,
): () => void {
  const watcher: Watcher = {
    eventId,
    listener,
    lastSeq: Math.max(0, Math.trunc(watchOptions.afterSeq ?? 0)),
    catchingUp: true,
    pending: [],
    again: false,
    closed: false,
  };
  clearTimeout(state.idleTimer);
  let set = state.watchers.get(eventId);
  if (!set) {
    set = new Set();
    state.watchers.set(eventId, set);
  }
  set.add(watcher);
  subscribeSteps(state).then(
    () => catchUp(state, watcher),
    (error: unknown) => {
      state.report(error, "could not subscribe to steps");
      // Still read the buffer; live messages follow once the subscriber reconnects.
      return catchUp(state, watcher);
    },
  );
  return () => unwatch(state, watcher);
}

function unwatch(state: StepHubState, watcher: Watcher): void {
  if (watcher.closed) return;
  watcher.closed = true;
  watcher.pending = [];
  const current = state.watchers.get(watcher.eventId);
  current?.delete(watcher);
  if (current && current.size === 0) state.watchers.delete(watcher.eventId);
  scheduleIdleUnsubscribe(state);
}

function countListeners(state: StepHubState, eventId?: string): number {
  if (eventId !== undefined) return state.watchers.get(eventId)?.size ?? 0;
  let count = 0;
  for (const set of state.watchers.values()) count += set.size;
  return count;
}

async function closeStepHub(state: StepHubState): Promise<void> {
  state.closed = true;
  clearTimeout(state.idleTimer);
  for (const set of state.watchers.values()) for (const watcher of set) watcher.closed = true;
  state.watchers.clear();
  state.subscriber.off("message", state.onMessage);
  state.subscriber.off("ready", state.onReady);
  if (state.subscription && state.subscriber.status === "ready") {
    await state.subscriber.unsubscribe(state.channel).catch(() => undefined);
  }
  state.subscription = null;
}

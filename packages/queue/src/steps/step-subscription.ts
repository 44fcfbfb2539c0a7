import { subscribeAfterHandshake } from "../subscribe-after-handshake.js";
import { requestCatchUp } from "./step-catch-up.js";
import type { StepHubState } from "./step-hub-state.js";

/** The hub's one subscription to the steps channel: made on first use, again after a failure. */
export function subscribeSteps(state: StepHubState): Promise<void> {
  state.subscription ??= subscribeAfterHandshake(state.subscriber, state.channel).catch(
    (error: unknown) => {
      state.subscription = null;
      throw error;
    },
  );
  return state.subscription;
}

/** With `idleUnsubscribeMs` set, drops the subscription once that long passes without watchers. */
export function scheduleIdleUnsubscribe(state: StepHubState): void {
  const idleMs = state.options.idleUnsubscribeMs;
  if (idleMs === undefined || state.watchers.size > 0 || !state.subscription) return;
  clearTimeout(state.idleTimer);
  state.idleTimer = setTimeout(() => {
    state.idleTimer = undefined;
    if (state.watchers.size > 0 || !state.subscription || state.closed) return;
    state.subscription = null;
    state.subscriber
      .unsubscribe(state.channel)
      .catch((error: unknown) => state.report(error, "could not drop the idle steps subscription"));
  }, idleMs);
  state.idleTimer.unref();
}

/** On the subscriber's `ready`: subscribes again, then has every watcher re-read its buffer. */
export function resubscribeSteps(state: StepHubState): void {
  if (!state.subscription || state.closed) return;
  // A subscription asked for before this connection was ready may have been made on an earlier
  // connection, and pub/sub lost what was published since: subscribe again, then re-read. On a
  // first connection this costs one more SUBSCRIBE and buffer read per watcher.
  state.subscription = null;
  subscribeSteps(state).then(
    () => {
      for (const set of state.watchers.values()) {
        for (const watcher of set) requestCatchUp(state, watcher);
      }
    },
    (error: unknown) => state.report(error, "could not subscribe to steps again"),
  );
}

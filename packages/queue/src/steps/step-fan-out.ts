import { deliver, requestCatchUp } from "./step-catch-up.js";
import { parseStepEntry, peekEventId } from "./step-entry.js";
import type { StepHubState } from "./step-hub-state.js";

/** Splits a publish batch (entries separated by newlines) into its entries. */
function* batchEntries(batch: string): Generator<string> {
  let start = 0;
  while (start < batch.length) {
    let end = batch.indexOf("\n", start);
    if (end === -1) end = batch.length;
    yield batch.slice(start, end);
    start = end + 1;
  }
}

/** Hands a message of the steps channel to the watchers of its entries' events. */
export function fanOut(state: StepHubState, from: string, batch: string): void {
  if (from !== state.channel || state.watchers.size === 0) return;
  for (const raw of batchEntries(batch)) fanOutEntry(state, raw);
}

function fanOutEntry(state: StepHubState, raw: string): void {
  const eventId = peekEventId(raw);
  const set = eventId === null ? undefined : state.watchers.get(eventId);
  if (!set) return;
  const entry = parseStepEntry(raw);
  if (!entry) {
    state.report(new Error("malformed step entry"), "ignored a malformed step message");
    return;
  }
  for (const watcher of set) {
    if (watcher.catchingUp) {
      watcher.pending.push(entry);
    } else if (entry.seq > watcher.lastSeq + 1) {
      // A gap: something was lost on the way (reconnect). The buffer has it.
      watcher.pending.push(entry);
      requestCatchUp(state, watcher);
    } else {
      deliver(watcher, entry, state.report);
    }
  }
}

import { parseStepEntry, type StepEntry } from "./step-entry.js";
import type { ErrorReport, StepHubState, Watcher } from "./step-hub-state.js";

/** Hands `entry` to the watcher unless it is closed or already had it (by sequence number). */
export function deliver(watcher: Watcher, entry: StepEntry, report: ErrorReport): void {
  if (watcher.closed || entry.seq <= watcher.lastSeq) return;
  watcher.lastSeq = entry.seq;
  try {
    watcher.listener(entry);
  } catch (error) {
    report(error, "step listener threw");
  }
}

/**
 * Reads the event's replay buffer into the watcher, then the live entries that waited meanwhile;
 * reads again while another read was asked for.
 */
export async function catchUp(state: StepHubState, watcher: Watcher): Promise<void> {
  do {
    watcher.again = false;
    try {
      const raws = await state.commands.lrange(state.keys.stepBuffer(watcher.eventId), 0, -1);
      for (const raw of raws) {
        const entry = parseStepEntry(raw);
        if (entry) deliver(watcher, entry, state.report);
      }
    } catch (error) {
      state.report(error, "could not read a step buffer");
    }
    const queued = watcher.pending;
    watcher.pending = [];
    for (const entry of queued) deliver(watcher, entry, state.report);
  } while (watcher.again && !watcher.closed);
  watcher.catchingUp = false;
}

/** Starts a buffer read for the watcher, or asks the running one to read again. */
export function requestCatchUp(state: StepHubState, watcher: Watcher): void {
  if (watcher.closed) return;
  if (watcher.catchingUp) {
    watcher.again = true;
    return;
  }
  watcher.catchingUp = true;
  void catchUp(state, watcher);
}

import type { TransformOutcome } from "../types.js";
import type { JqJob } from "./jq-messages.js";
import type { JqPoolOptions } from "./jq-pool-options.js";
import {
  buildBatchInput,
  describeJqFailure,
  parseBatchOutput,
  wrapJqProgram,
} from "./jq-program.js";
import type { JqQueue, QueuedJqCall } from "./jq-queue.js";
import type { JqReply, RunningJob } from "./jq-slots.js";

/** The command that starts a run of `calls` (of one key and program) on a thread. */
export function jobCommand(
  id: number,
  key: string,
  program: string,
  calls: readonly QueuedJqCall[],
  maxOutputBytes: number,
): JqJob {
  return {
    type: "job",
    id,
    key,
    program: wrapJqProgram(program),
    stdin: buildBatchInput(calls.map((call) => call.inputJson)),
    maxStdoutChars: calls.length * (maxOutputBytes + 64),
  };
}

/**
 * What becomes of a thread once its run is settled: it goes on (`keep`), it is replaced although
 * it works (`recycle`: its memory grew past `recycleMemoryBytes`), or it is `lost` (jq aborted).
 */
export type ThreadAfterRun = "keep" | "recycle" | "lost";

/** Settles a finished run's calls (those of a run that failed as a whole go to `failJob`). */
export function settleJob(
  queue: JqQueue,
  job: RunningJob,
  message: JqReply,
  limits: Pick<JqPoolOptions, "maxOutputBytes" | "recycleMemoryBytes">,
): ThreadAfterRun {
  const { maxOutputBytes, recycleMemoryBytes } = limits;
  switch (message.type) {
    case "done": {
      const failure =
        message.exitCode === 0 ? undefined : describeJqFailure(message.stderr, job.program);
      const outcomes = parseBatchOutput(message.stdout, job.calls.length, maxOutputBytes, failure);
      job.calls.forEach((call, index) => {
        call.settle(outcomes[index] as TransformOutcome);
      });
      return message.memoryBytes > recycleMemoryBytes ? "recycle" : "keep";
    }
    case "too_large":
      failJob(queue, job, `jq output exceeds the ${maxOutputBytes}-byte limit`);
      return message.memoryBytes > recycleMemoryBytes ? "recycle" : "keep";
    case "fatal":
      failJob(queue, job, "jq program ran out of memory");
      return "lost";
  }
}

/**
 * A batch that failed as a whole is retried call by call, so only the culprit fails. A call
 * that overran alone runs once more on a fresh thread before it fails, so a moment of CPU
 * starvation on a busy machine does not fail a legitimate event.
 */
export function failJob(queue: JqQueue, job: RunningJob, error: string, timedOut = false): void {
  const [only, ...others] = job.calls;
  if (!only) return;
  if (others.length > 0) {
    for (const call of job.calls) queue.pushAlone(call);
  } else if (timedOut && !only.overran) {
    only.overran = true;
    queue.pushAlone(only);
  } else {
    only.settle({ ok: false, error });
  }
}

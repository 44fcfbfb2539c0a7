import { createRequire } from "node:module";
import { type IRedisTransaction, Job, type JobJson, type Queue, RedisQueueBackend } from "bullmq";
import { z } from "zod";
import { DELIVER_JOB, type DeliverJobData } from "./deliver-job.js";

/**
 * Many jobs, one Redis call. BullMQ's `addBulk` sends one Lua call per job through a pipeline;
 * on the ingress hot path that client-side encoding costs about as much as the whole HTTP
 * request. Here BullMQ itself still builds every job (options, validation, keys, packed
 * arguments), and its own `addStandardJob` script still stores each one, but the script runs in
 * a loop inside ONE call per lane: the same keys and hashes `addBulk` would write, at about half
 * the client CPU and with less Redis work. Jobs with a delay, or anything BullMQ would store with
 * another script, go through `addBulk` unchanged.
 */
const COMMAND = "hookflowAddStandardJobs";
const STANDARD = "addStandardJob:";
/** Jobs per Redis call, so one call never blocks Redis for long. */
const CHUNK = 250;

const BullScript = z.object({
  addStandardJob: z.object({ content: z.string().min(1), keys: z.literal(9) }),
});

/** BullMQ's script wrapped so that it runs once per job: KEYS shared, ARGV three per job. */
function loadBatchScript(): string | null {
  try {
    const require = createRequire(import.meta.url);
    const { addStandardJob } = BullScript.parse(
      require("bullmq/dist/cjs/scripts/addStandardJob-9.js"),
    );
    return [
      "local function addOne(KEYS, ARGV)",
      addStandardJob.content,
      "end",
      "local out = {}",
      "for i = 0, #ARGV / 3 - 1 do",
      "  out[i + 1] = addOne(KEYS, { ARGV[3 * i + 1], ARGV[3 * i + 2], ARGV[3 * i + 3] })",
      "end",
      "return out",
    ].join("\n");
  } catch {
    // Another BullMQ layout: every add goes through addBulk.
    return null;
  }
}

const batchScript = loadBatchScript();
/** False when this BullMQ's script could not be loaded: every add then goes through addBulk. */
export const batchedAddsAvailable = batchScript !== null;
const defined = new WeakSet<object>();

/** Exposes BullMQ's own option checks (protected) for jobs built outside `Queue.add`. */
class BatchedJob extends Job<DeliverJobData> {
  checkedJson(): JobJson {
    const json = this.asJSON();
    this.validateOptions(json);
    return json;
  }
}

interface Collected {
  keys: unknown[];
  argv: unknown[];
  standard: boolean;
}

/** Stands in for a pipeline: records what BullMQ would have sent for each job. */
function collector(into: Collected): IRedisTransaction {
  const fake = {
    runCommand(name: string, args: unknown[]) {
      if (!name.startsWith(STANDARD) || args.length !== 12) into.standard = false;
      if (into.keys.length === 0) into.keys = args.slice(0, 9);
      into.argv.push(args[9], args[10], args[11]);
      return fake;
    },
  };
  return fake as unknown as IRedisTransaction;
}

/**
 * Adds jobs without delay to `queue` with one script call per chunk. Returns false, having
 * written nothing, when the batch path does not apply (then the caller uses `addBulk`).
 */
export async function addStandardJobs(
  queue: Queue<DeliverJobData>,
  jobs: { data: DeliverJobData; jobId: string }[],
): Promise<boolean> {
  const backend = queue.backend;
  // BullMQ telemetry puts span context into each job's options: leave that to addBulk.
  if (batchScript === null || !(backend instanceof RedisQueueBackend) || queue.opts.telemetry) {
    return false;
  }
  const chunks: Collected[] = [];
  for (let start = 0; start < jobs.length; start += CHUNK) {
    const into: Collected = { keys: [], argv: [], standard: true };
    const client = collector(into);
    const adds = jobs.slice(start, start + CHUNK).map(({ data, jobId }) => {
      const job = new BatchedJob(queue, DELIVER_JOB, data, { ...queue.jobsOpts, jobId }, jobId);
      return backend.addJobToTransaction(client, job.checkedJson(), jobId, {
        parentDependenciesKey: "",
      });
    });
    await Promise.all(adds);
    if (!into.standard) return false;
    chunks.push(into);
  }
  const redis = await backend.client;
  if (!defined.has(redis)) {
    redis.defineCommand(COMMAND, { numberOfKeys: 9, lua: batchScript });
    defined.add(redis);
  }
  for (const { keys, argv } of chunks) {
    const ids: unknown = await redis.runCommand(COMMAND, [...keys, ...argv]);
    if (!Array.isArray(ids) || ids.some((id) => typeof id === "number" && id < 0)) {
      throw new Error(`adding jobs to ${queue.name} failed: ${JSON.stringify(ids)}`);
    }
  }
  return true;
}

import {
  createGroupCommit,
  type DbHandle,
  type DeliveryEvent,
  type DeliveryEventRequest,
  findDeliveryEvents,
  type RecordDeliveryAttemptInput,
  type RecordDeliveryAttemptResult,
  recordDeliveryAttempts,
} from "@hookflow/db";

/**
 * The delivery path's two statements, batched across the jobs running in one worker: the event
 * reads of the jobs that start in the same event-loop turn share one SELECT, and the records of
 * the jobs that settle together share one statement (group commit). Each job still awaits its
 * own read and its own record before it goes on, so nothing a job decides or acknowledges rests
 * on a write that has not happened; under load the batches grow instead of the statements
 * multiplying (measured in docs/benchmarks.md).
 */
export interface DeliveryBatches {
  readEvent: (request: DeliveryEventRequest) => Promise<DeliveryEvent | undefined>;
  record: (input: RecordDeliveryAttemptInput) => Promise<RecordDeliveryAttemptResult>;
  /** Flushes what is open and waits for every statement in flight. */
  drain: () => Promise<void>;
}

/** At most this many reads or records share a statement. */
const MAX_BATCH = 256;

export function createDeliveryBatches(db: DbHandle): DeliveryBatches {
  const reads = createGroupCommit<DeliveryEventRequest, DeliveryEvent | undefined>({
    flush: (requests) => findDeliveryEvents(db, requests),
    maxItems: MAX_BATCH,
    maxWaitMs: 0,
    maxInFlight: 3,
  });
  const records = createGroupCommit<RecordDeliveryAttemptInput, RecordDeliveryAttemptResult>({
    flush: (inputs) => recordDeliveryAttempts(db, inputs),
    maxItems: MAX_BATCH,
    maxWaitMs: 0,
    maxInFlight: 2,
  });
  return {
    readEvent: reads.submit,
    record: records.submit,
    drain: async () => {
      await Promise.all([reads.drain(), records.drain()]);
    },
  };
}

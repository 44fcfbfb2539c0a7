import type { StepHub } from "@hookflow/queue";
import { formatSseMessage, HEARTBEAT, RETRY_HINT } from "../sse/sse-format.js";
import type { SseSink } from "../sse/sse-sink.js";

/** Why a stream ended. */
export type StreamEnd = "done" | "timeout" | "client" | "slow_client" | "shutdown";

export interface RunEventStreamOptions {
  sink: SseSink;
  hub: StepHub;
  eventId: string;
  /** Resume after this sequence number (`Last-Event-ID`); 0 sends everything. */
  afterSeq: number;
  timeoutMs: number;
  heartbeatMs: number;
  /** A client that leaves more than this unread is cut off. */
  maxBufferedBytes: number;
  onEnd: (reason: StreamEnd) => void;
}

/**
 * Relays one event's pipeline to one SSE client: the steps so far and the live ones (`step`),
 * then `done` and the end, or `timeout` when the pipeline takes too long (it keeps running).
 * Every way out runs the same cleanup: the hub watch, the heartbeat and the timeout go away.
 * Returns the function that ends the stream from outside (shutdown).
 */
export function runEventStream(options: RunEventStreamOptions): (reason: StreamEnd) => void {
  const { sink, eventId } = options;
  let ended = false;
  let heartbeat: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;
  let unwatch: (() => void) | undefined;

  const finish = (reason: StreamEnd) => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    clearTimeout(deadline);
    unwatch?.();
    sink.end();
    options.onEnd(reason);
  };

  const write = (text: string) => {
    if (ended) return;
    sink.write(text);
    if (sink.bufferedBytes() > options.maxBufferedBytes) finish("slow_client");
  };

  sink.onClose(() => finish("client"));
  if (ended) return finish;
  write(RETRY_HINT);

  heartbeat = setInterval(() => write(HEARTBEAT), options.heartbeatMs);
  deadline = setTimeout(() => {
    write(formatSseMessage("timeout", { eventId, waitedMs: options.timeoutMs }));
    finish("timeout");
  }, options.timeoutMs);

  unwatch = options.hub.watch(eventId, { afterSeq: options.afterSeq }, ({ seq, message }) => {
    switch (message.kind) {
      case "step":
        write(formatSseMessage("step", message.step, seq));
        return;
      case "done": {
        const { status, body } = message.done;
        write(formatSseMessage("done", { status, body }, seq));
        finish("done");
        return;
      }
      case "parked":
        // Not a documented SSE event: the stream goes on until done or timeout.
        return;
    }
  });
  // The watch may have finished the stream synchronously (never today, but cheap to honour).
  if (ended) unwatch();
  return finish;
}

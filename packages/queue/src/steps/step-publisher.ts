import type { StepMessage } from "@hookflow/pipeline";
import type { Redis } from "ioredis";
import type { RedisKeys } from "../redis-keys.js";

/**
 * How long an event's replay buffer lives after its last message. The latest a stream token is
 * issued is with a sync answer that timed out (120 s after acceptance); it is valid 120 s and a
 * stream lasts at most 120 s, so no stream reads a buffer later than 360 s after its first
 * message. Ten minutes covers that with a margin, so a buffer never expires (and its numbering
 * never restarts) under an open stream, while Redis holds about ten minutes of traffic.
 */
export const STEP_BUFFER_TTL_SECONDS = 10 * 60;
/** At most this many messages are kept per event; older ones are dropped first. */
export const STEP_BUFFER_MAX_ENTRIES = 1000;
/** One script call carries at most this many messages, or this many characters of them. */
const BATCH_MAX_MESSAGES = 500;
const BATCH_MAX_CHARS = 1024 * 1024;

/**
 * Publishes a batch atomically, grouped by event. For each event: number its messages after the
 * last one in its replay buffer (the buffer's tail entry starts with its `seq`), append them all
 * in one RPUSH (capped, expiring). Then one PUBLISH carries every entry of the batch on the steps
 * channel, separated by newlines (JSON text never holds a raw newline). Returns the last
 * sequence number of each event group.
 *
 * KEYS: the buffer of each group. ARGV: channel, ttl, cap, then per group the message count and
 * the count's messages, each the JSON tail of an entry (`,"eventId":...,"message":...}`).
 */
const PUBLISH_STEPS = `
local ttl = ARGV[2]
local cap = tonumber(ARGV[3])
local published = {}
local lasts = {}
local arg = 4
for g = 1, #KEYS do
  local buffer = KEYS[g]
  local count = tonumber(ARGV[arg])
  arg = arg + 1
  local seq = 0
  local tail = redis.call('LINDEX', buffer, -1)
  if tail then seq = tonumber(string.match(tail, '^{"seq":(%d+),')) or 0 end
  local entries = {}
  for i = 1, count do
    seq = seq + 1
    local entry = '{"seq":' .. seq .. ARGV[arg]
    arg = arg + 1
    entries[i] = entry
    published[#published + 1] = entry
  end
  local length = redis.call('RPUSH', buffer, unpack(entries))
  if length > cap then redis.call('LTRIM', buffer, -cap, -1) end
  redis.call('EXPIRE', buffer, ttl)
  lasts[g] = seq
end
redis.call('PUBLISH', ARGV[1], table.concat(published, '\\n'))
return lasts
`;

export interface SendOptions {
  /** Go out on the next event-loop turn instead of waiting out the gather window. */
  urgent?: boolean;
}

export interface StepPublisher {
  /**
   * Publishes one message of an event's pipeline; resolves with its sequence number. Messages
   * reach Redis in the order they were given (`publish` and `send` alike), so callers need not
   * await one before the next.
   */
  publish: (eventId: string, message: StepMessage, options?: SendOptions) => Promise<number>;
  /** The same without a promise per message: a failure goes to the `onError` option. */
  send: (eventId: string, message: StepMessage, options?: SendOptions) => void;
  /**
   * `send` for a message already serialized: `json` must be the JSON text of a valid
   * `StepMessage` (the caller splices in payload text it had at hand).
   */
  sendJson: (eventId: string, json: string, options?: SendOptions) => void;
  /** Resolves once everything given so far reached Redis (or failed). */
  idle: () => Promise<void>;
}

export interface CreateStepPublisherOptions {
  /** A command connection (never one in subscriber mode). */
  redis: Redis;
  keys: RedisKeys;
  bufferTtlSeconds?: number;
  bufferMaxEntries?: number;
  /**
   * How long messages gather before one script call takes them all (0: the next event-loop turn).
   * Every call is a round trip, and on a busy worker most of the publishing cost is the calls, so
   * the worker gathers the messages of every job running meanwhile for some ms; an urgent
   * message takes what has gathered on the next turn.
   */
  flushDelayMs?: number;
  /** Told when a batch given with `send` could not be published. */
  onError?: (error: unknown, messages: number) => void;
}

interface Queued {
  json: string;
  resolve?: (seq: number) => void;
  reject?: (error: unknown) => void;
}

/** The messages of one event within a batch, in publish order. */
type Groups = Map<string, Queued[]>;

/**
 * Publisher of pipeline steps. Messages given within one gather window go to Redis together as
 * one script call, grouped by event: per event one read of the buffer's tail, one append and one
 * expiry, and one PUBLISH for the whole batch. The script runs atomically, so buffer order,
 * sequence numbers and publish order always agree. EVAL rather than EVALSHA on purpose: a
 * NOSCRIPT fallback (after a Redis restart) can let a later EVALSHA overtake an earlier batch's
 * fallback EVAL, and EVAL measured no slower here (Redis caches the compiled script by its hash).
 */
export function createStepPublisher(options: CreateStepPublisherOptions): StepPublisher {
  const { redis, keys } = options;
  const ttl = options.bufferTtlSeconds ?? STEP_BUFFER_TTL_SECONDS;
  const cap = options.bufferMaxEntries ?? STEP_BUFFER_MAX_ENTRIES;
  const flushDelayMs = options.flushDelayMs ?? 0;
  const onError = options.onError ?? (() => {});
  let groups: Groups = new Map();
  let messages = 0;
  let bytes = 0;
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  let last: Promise<unknown> = Promise.resolve();

  const write = (batch: Groups) => {
    const scriptKeys: string[] = [];
    const args: Array<string | number> = [keys.stepsChannel, ttl, cap];
    for (const [eventId, items] of batch) {
      scriptKeys.push(keys.stepBuffer(eventId));
      args.push(items.length);
      const head = `,"eventId":${JSON.stringify(eventId)},"message":`;
      for (const item of items) args.push(`${head}${item.json}}`);
    }
    last = redis.eval(PUBLISH_STEPS, scriptKeys.length, ...scriptKeys, ...args).then(
      (lasts) => {
        const numbers = Array.isArray(lasts) ? lasts : [];
        let group = 0;
        for (const items of batch.values()) {
          const lastSeq = Number(numbers[group++]);
          for (const [index, item] of items.entries()) {
            item.resolve?.(lastSeq - items.length + 1 + index);
          }
        }
      },
      (error: unknown) => {
        let unobserved = 0;
        for (const items of batch.values()) {
          for (const item of items) {
            if (item.reject) item.reject(error);
            else unobserved++;
          }
        }
        if (unobserved > 0) onError(error, unobserved);
      },
    );
  };

  const flush = () => {
    clearTimeout(timer);
    clearImmediate(immediate);
    timer = undefined;
    immediate = undefined;
    const batch = groups;
    groups = new Map();
    messages = 0;
    bytes = 0;
    if (batch.size > 0) write(batch);
  };

  const enqueue = (eventId: string, item: Queued, urgent: boolean) => {
    // A full batch goes now, so later messages cannot overtake it.
    if (messages >= BATCH_MAX_MESSAGES || bytes > BATCH_MAX_CHARS) flush();
    const group = groups.get(eventId);
    if (group) group.push(item);
    else groups.set(eventId, [item]);
    messages++;
    bytes += item.json.length;
    if (immediate) return;
    if (urgent || flushDelayMs <= 0) {
      clearTimeout(timer);
      timer = undefined;
      immediate = setImmediate(flush);
    } else {
      timer ??= setTimeout(flush, flushDelayMs);
    }
  };

  return {
    publish: (eventId, message, sendOptions) =>
      new Promise<number>((resolve, reject) => {
        enqueue(eventId, { json: JSON.stringify(message), resolve, reject }, !!sendOptions?.urgent);
      }),
    send: (eventId, message, sendOptions) => {
      enqueue(eventId, { json: JSON.stringify(message) }, !!sendOptions?.urgent);
    },
    sendJson: (eventId, json, sendOptions) => {
      // Entries travel newline-separated: text with a raw line break (never written by
      // JSON.stringify) is written again rather than trusted to keep the framing.
      const safe = json.includes("\n") ? JSON.stringify(JSON.parse(json)) : json;
      enqueue(eventId, { json: safe }, !!sendOptions?.urgent);
    },
    idle: async () => {
      if (messages > 0) flush();
      await last.catch(() => undefined);
    },
  };
}

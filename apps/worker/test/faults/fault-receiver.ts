import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the receiver does with a request: answer now, or hold it open until `release()`. */
type Reply = { status: number; body?: string; delayMs?: number } | { hold: true };

interface Arrival {
  eventId: string;
  /** `X-Hookflow-Delivery-Attempt` as sent. */
  attempt: string;
  path: string;
  /** Copies of this event in flight at the receiver when this one arrived (itself included). */
  inFlight: number;
  /** Status answered, once answered (undefined while held or when the sender hung up). */
  answered?: number;
}

export interface FaultReceiver {
  url: string;
  arrivals: Arrival[];
  /** Decides each reply; runs when the body has arrived (side effects such as killing a worker are fine). */
  reply: (decide: (arrival: Arrival) => Reply) => void;
  /** Answers every held request with `status` (default 200). */
  release: (status?: number) => void;
  /** Most copies of one event ever in flight at once, over `eventIds` (default: all events). */
  maxInFlight: (eventIds?: string[]) => number;
  /** Requests of `eventId` answered with a 2xx. */
  delivered: (eventId: string) => number;
  close: () => Promise<void>;
}

/**
 * A real HTTP receiver for fault tests. It counts, per `X-Hookflow-Event-Id`, how many copies are
 * in flight at once (from the request to the end of its response or connection), and can hold
 * requests open until the test releases them, which the shared `startReceiver` cannot.
 */
export async function startFaultReceiver(): Promise<FaultReceiver> {
  const arrivals: Arrival[] = [];
  const inFlight = new Map<string, number>();
  const held: Array<{ arrival: Arrival; res: ServerResponse }> = [];
  let decide: (arrival: Arrival) => Reply = () => ({ status: 200 });

  const answer = (arrival: Arrival, res: ServerResponse, status: number, body = '{"ok":true}') => {
    if (res.destroyed || res.writableEnded) return;
    arrival.answered = status;
    res.writeHead(status, { "content-type": "application/json" });
    res.end(body);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const header = req.headers["x-hookflow-event-id"];
    const eventId = typeof header === "string" ? header : "";
    const current = (inFlight.get(eventId) ?? 0) + 1;
    inFlight.set(eventId, current);
    const attempt = req.headers["x-hookflow-delivery-attempt"];
    const arrival: Arrival = {
      eventId,
      attempt: typeof attempt === "string" ? attempt : "",
      path: req.url ?? "/",
      inFlight: current,
    };
    let done = false;
    res.once("close", () => {
      if (done) return;
      done = true;
      inFlight.set(eventId, (inFlight.get(eventId) ?? 1) - 1);
    });
    req.resume();
    req.once("end", () => {
      arrivals.push(arrival);
      const reply = decide(arrival);
      if ("hold" in reply) held.push({ arrival, res });
      else if (reply.delayMs) {
        setTimeout(() => answer(arrival, res, reply.status, reply.body), reply.delayMs);
      } else answer(arrival, res, reply.status, reply.body);
    });
  });
  server.keepAliveTimeout = 5_000;
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    reply: (next) => {
      decide = next;
    },
    release: (status = 200) => {
      for (const { arrival, res } of held.splice(0)) answer(arrival, res, status);
    },
    maxInFlight: (eventIds) =>
      Math.max(
        0,
        ...arrivals
          .filter((arrival) => !eventIds || eventIds.includes(arrival.eventId))
          .map((arrival) => arrival.inFlight),
      ),
    delivered: (eventId) =>
      arrivals.filter(
        (arrival) =>
          arrival.eventId === eventId &&
          arrival.answered !== undefined &&
          arrival.answered >= 200 &&
          arrival.answered < 300,
      ).length,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

/**
 * Holds the first request to `path` open, running `onHold` (e.g. signalling a worker) as it
 * arrives; every other request is answered 200.
 */
export function holdFirstAt(receiver: FaultReceiver, path: string, onHold?: () => void): void {
  let held = false;
  receiver.reply((arrival) => {
    if (arrival.path !== path || held) return { status: 200 };
    held = true;
    onHold?.();
    return { hold: true };
  });
}

// The parent's handle on the receiver process (bench/lib/receiver.mjs): mode changes, arrivals.
import { fork } from "node:child_process";

export function startReceiver(script, port) {
  const child = fork(script, [String(port)], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
  const ask = (msg, type) =>
    new Promise((resolve) => {
      const on = (m) => {
        if (m.type === type) {
          child.off("message", on);
          resolve(m);
        }
      };
      child.on("message", on);
      child.send(msg);
    });
  return {
    child,
    ready: new Promise((r) => child.once("message", r)),
    setMode: (mode) => ask({ type: "mode", mode }, "ack"),
    /** Arrivals since the last drain: [eventId, epoch ms]. */
    drain: () => ask({ type: "drain" }, "arrivals"),
    reset: () => ask({ type: "reset" }, "ack"),
    /** Successful deliveries so far (cumulative; `reset` zeroes it). */
    count: () => ask({ type: "count" }, "count").then((m) => m.count),
  };
}

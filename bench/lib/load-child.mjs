// A load generator in a process of its own, so the bench's bookkeeping never steals its event
// loop. The parent sends one job over IPC and gets the result back; event ids with their send
// times (epoch ms) come back for end-to-end latency.
import { closedLoop, openLoop } from "./load.mjs";

const epoch = (t) => performance.timeOrigin + t;

process.on("message", async (job) => {
  const sent = [];
  const onResponse = job.collectIds
    ? (text, t0) => {
        try {
          sent.push([JSON.parse(text).eventId, epoch(t0)]);
        } catch {}
      }
    : undefined;
  try {
    const run = job.kind === "open" ? openLoop : closedLoop;
    const result = await run({ ...job.options, onResponse });
    process.send({ ok: true, result: { ...result, driver: "node", sent } });
  } catch (error) {
    process.send({ ok: false, error: String(error?.stack ?? error) });
  }
});

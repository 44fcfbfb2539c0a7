// A delivery receiver in its own process (so it does not steal the load generator's event
// loop). Records arrival time per event id and answers per the mode set over IPC:
//   {mode: "ok"} | {mode: "bad", delayMs, failRate} | {mode: "down"}
import { createServer } from "node:http";

const now = () => performance.timeOrigin + performance.now();
let mode = { mode: "ok" };
let arrivals = [];
let count = 0;
const sockets = new Set();

const server = createServer((req, res) => {
  const id = req.headers["x-hookflow-event-id"];
  req.resume();
  req.on("end", () => {
    if (mode.mode === "bad") {
      setTimeout(() => {
        if (Math.random() < mode.failRate) {
          res.writeHead(500).end("injected failure");
        } else {
          count++;
          arrivals.push([id, now()]);
          res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
        }
      }, mode.delayMs);
      return;
    }
    count++;
    arrivals.push([id, now()]);
    res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
  });
});
server.on("connection", (s) => {
  sockets.add(s);
  s.on("close", () => sockets.delete(s));
});

const port = Number(process.argv[2]);
function listen() {
  server.listen(port, "127.0.0.1", () => process.send?.({ type: "listening", port }));
}
listen();

process.on("message", (msg) => {
  if (msg.type === "mode") {
    if (msg.mode.mode === "down") {
      server.close();
      for (const s of sockets) s.destroy();
      mode = msg.mode;
      process.send({ type: "ack" });
    } else {
      const wasDown = mode.mode === "down";
      mode = msg.mode;
      if (wasDown) {
        server.listen(port, "127.0.0.1", () => process.send({ type: "ack" }));
      } else process.send({ type: "ack" });
    }
  } else if (msg.type === "count") {
    process.send({ type: "count", count });
  } else if (msg.type === "drain") {
    process.send({ type: "arrivals", arrivals, count });
    arrivals = [];
  } else if (msg.type === "reset") {
    arrivals = [];
    count = 0;
    process.send({ type: "ack" });
  }
});

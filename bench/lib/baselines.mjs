// Bare servers answering 202, the ceiling the ingress is compared with. Run as a child:
//   node bench/lib/baselines.mjs node|hono <port>
import { createServer } from "node:http";

const [kind, portText] = process.argv.slice(2);
const port = Number(portText);
const body = JSON.stringify({ eventId: "evt_baseline", streamToken: "x" });

if (kind === "node") {
  createServer((req, res) => {
    if (req.url === "/api/health") {
      res.writeHead(200).end("ok");
      return;
    }
    req.resume();
    req.on("end", () => {
      res.writeHead(202, { "content-type": "application/json" }).end(body);
    });
  }).listen(port, "127.0.0.1");
} else {
  const { Hono } = await import("hono");
  const { serve } = await import("@hono/node-server");
  const app = new Hono();
  app.get("/api/health", (c) => c.text("ok"));
  app.post("/api/in/:token", async (c) => {
    await c.req.arrayBuffer();
    return c.json({ eventId: "evt_baseline", streamToken: "x" }, 202);
  });
  serve({ fetch: app.fetch, port, hostname: "127.0.0.1" });
}

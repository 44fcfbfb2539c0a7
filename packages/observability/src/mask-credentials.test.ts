import { Writable } from "node:stream";
import { UnavailableError } from "@hookflow/domain";
import { Hono } from "hono";
import { createErrorHandler } from "./error-handler.js";
import { createLogger } from "./logger.js";
import { maskCredentials } from "./mask-credentials.js";

const TOKEN = "tok_9f8e7d6c5b4a39281706f5e4d3c2b1a0";

function captured() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, logger: createLogger({ level: "info", role: "test", destination }) };
}

/** A failure of a drizzle query: its message ends with the statement's parameters. */
function failedQuery(): Error {
  const error = new Error(`Failed query: select 1 where x = $1\nparams: ${TOKEN}`);
  Object.assign(error, { query: "select 1 where x = $1", params: [TOKEN] });
  return error;
}

describe("maskCredentials", () => {
  it.each([
    [`/api/in/${TOKEN}`, "/api/in/:token"],
    [
      `POST http://h:3000/api/in/${TOKEN}?x=1 failed`,
      "POST http://h:3000/api/in/:token?x=1 failed",
    ],
    [
      `/api/events/evt_1/stream?token=${TOKEN}&lastEventId=3`,
      "/api/events/evt_1/stream?token=[redacted]&lastEventId=3",
    ],
    [`GET /x?a=1&token=${TOKEN}`, "GET /x?a=1&token=[redacted]"],
    [`Failed query: select 1\nparams: ${TOKEN},2`, "Failed query: select 1\nparams: [redacted]"],
    ["/api/webhooks/wh_1", "/api/webhooks/wh_1"],
  ])("masks %j", (text, masked) => {
    expect(maskCredentials(text)).toBe(masked);
  });
});

describe("logged errors", () => {
  it("logs a 500 and a 503 of a token route with the path masked and no token anywhere", async () => {
    const { lines, logger } = captured();
    const app = new Hono();
    app.onError(createErrorHandler(logger));
    app.post("/api/in/:token", (c) => {
      throw new Error(`handler failed for ${c.req.url}`, { cause: failedQuery() });
    });
    app.get("/api/events/:id/stream", (c) => {
      throw new Error(`stream failed for ${c.req.url}`);
    });
    app.put("/api/in/:token", () => {
      throw new UnavailableError("Webhook store unavailable", failedQuery());
    });

    expect((await app.request(`/api/in/${TOKEN}`, { method: "POST" })).status).toBe(500);
    expect((await app.request(`/api/events/evt_1/stream?token=${TOKEN}`)).status).toBe(500);
    expect((await app.request(`/api/in/${TOKEN}`, { method: "PUT" })).status).toBe(503);

    expect(lines).toHaveLength(3);
    expect(lines.map((line) => [line.msg, line.path])).toEqual([
      ["unhandled error", "/api/in/:token"],
      ["unhandled error", "/api/events/evt_1/stream"],
      ["Webhook store unavailable", "/api/in/:token"],
    ]);
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
    // What is left still says what failed.
    expect(JSON.stringify(lines[0])).toContain("Failed query: select 1 where x = $1");
  });
});

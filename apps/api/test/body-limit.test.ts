import { streamUpload } from "@hookflow/testing";
import { createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";

const MB = 1024 * 1024;

describe("request body limits", () => {
  let api: ApiHarness;
  let server: Awaited<ReturnType<ApiHarness["listen"]>>;
  let token: string;
  beforeAll(async () => {
    api = await startApi({ MAX_PAYLOAD_BYTES: String(64 * 1024) });
    server = await api.listen();
    token = (await createUserWithSession(api.database.db)).token;
  });
  afterAll(async () => {
    await server.close();
    await api.close();
  });

  it("answers a 20 MB chunked login body 413 in the error shape before it has all arrived", async () => {
    const res = await streamUpload(`${server.url}/api/auth/login`, { totalBytes: 20 * MB });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      statusCode: 413,
      message: "Payload exceeds the limit of 16384 bytes",
      error: "Payload Too Large",
    });
    expect(res.sentAll).toBe(false);
  });

  it("answers a declared 20 MB Content-Length 413 without reading the body", async () => {
    const res = await streamUpload(`${server.url}/api/auth/signup`, {
      totalBytes: 20 * MB,
      headers: { "content-length": String(20 * MB) },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(expect.objectContaining({ error: "Payload Too Large" }));
    expect(res.sentAll).toBe(false);
  });

  it("holds authenticated routes to MAX_PAYLOAD_BYTES", async () => {
    const res = await streamUpload(`${server.url}/api/webhooks`, {
      totalBytes: 20 * MB,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(
      expect.objectContaining({ message: "Payload exceeds the limit of 65536 bytes" }),
    );
    expect(res.sentAll).toBe(false);
  });

  it("asks for the credential before reading any body", async () => {
    const res = await streamUpload(`${server.url}/api/webhooks`, { totalBytes: 20 * MB });
    expect(res.status).toBe(401);
    expect(res.sentAll).toBe(false);
  });

  it("counts the bytes of a body whose Content-Length lies", async () => {
    const body = JSON.stringify({ name: "x".repeat(100 * 1024) });
    const res = await api.app.request("/api/webhooks", {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "content-length": "20",
      },
      body,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      statusCode: 413,
      message: "Payload exceeds the limit of 65536 bytes",
      error: "Payload Too Large",
    });
  });

  it("still accepts bodies within the limit", async () => {
    const ok = await api.call("POST", "/api/webhooks", {
      token,
      body: { name: "fits", targetUrl: "https://example.com/hook" },
    });
    expect(ok.status).toBe(201);
    const login = await api.call("POST", "/api/auth/login", {
      body: { email: "nobody@example.com", password: "wrong password" },
    });
    expect(login.status).toBe(401);
  });
});

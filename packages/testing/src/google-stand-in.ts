import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as the stand-in received it. */
export interface GoogleCall {
  method: string;
  /** Path and query, as sent (percent-encoding kept). */
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: string;
  /** The body parsed: JSON, or the form of a token request. */
  json: unknown;
}

export interface GoogleStandIn {
  /** Base URL for GOOGLE_API_BASE_URL. */
  url: string;
  /** GOOGLE_OAUTH_TOKEN_URL. */
  tokenUrl: string;
  calls: GoogleCall[];
  /** The access token issued last (every token issued stays valid). */
  accessToken: () => string;
  /** Answers the next call to `method path` (path without query) with this status and body. */
  failNext: (method: string, path: string, status: number, body?: unknown) => void;
  close: () => Promise<void>;
}

/** The OAuth client the stand-in knows: refreshes must present these. */
export const GOOGLE_TEST_CLIENT = {
  clientId: "stand-in-client.apps.googleusercontent.com",
  clientSecret: "stand-in-client-secret",
  refreshToken: "1//stand-in-refresh-token",
};

type Reply = { status: number; body: unknown };

const unauthorized: Reply = {
  status: 401,
  body: {
    error: {
      code: 401,
      message: "Request had invalid authentication credentials.",
      status: "UNAUTHENTICATED",
    },
  },
};

/**
 * A local stand-in for Google's token endpoint and the Sheets v4 and Gmail v1 REST calls
 * Hookflow makes, answering as Google's API reference documents them: a bearer token it issued
 * is required, a refresh must carry the known client and refresh token.
 * Every request is recorded, so tests compare them with the reference.
 */
export async function startGoogleStandIn(
  initialToken = "ya29.initial-token",
): Promise<GoogleStandIn> {
  const calls: GoogleCall[] = [];
  let token = initialToken;
  let issued = 0;
  /** Every token issued stays valid (Google's access tokens live an hour each). */
  const valid = new Set([initialToken]);
  const failures: Array<{ method: string; path: string; reply: Reply }> = [];

  const route = (call: GoogleCall): Reply => {
    const path = call.url.split("?")[0] ?? "";
    const failure = failures.findIndex((f) => f.method === call.method && f.path === path);
    if (failure >= 0) return failures.splice(failure, 1)[0]?.reply ?? unauthorized;
    if (path === "/token") return refresh(call);
    const bearer = call.authorization?.replace(/^Bearer /, "") ?? "";
    if (!call.authorization?.startsWith("Bearer ") || !valid.has(bearer)) return unauthorized;
    return answer(call.method, path, call.json);
  };

  const refresh = (call: GoogleCall): Reply => {
    const form = call.json as Record<string, string>;
    if (
      form.grant_type !== "refresh_token" ||
      form.client_id !== GOOGLE_TEST_CLIENT.clientId ||
      form.client_secret !== GOOGLE_TEST_CLIENT.clientSecret ||
      form.refresh_token !== GOOGLE_TEST_CLIENT.refreshToken
    ) {
      return { status: 400, body: { error: "invalid_grant", error_description: "Bad Request" } };
    }
    issued += 1;
    token = `ya29.refreshed-${issued}`;
    valid.add(token);
    return {
      status: 200,
      body: {
        access_token: token,
        expires_in: 3599,
        token_type: "Bearer",
        scope: "https://mail.google.com/",
      },
    };
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const contentType = req.headers["content-type"];
      let json: unknown = null;
      if (contentType?.startsWith("application/x-www-form-urlencoded")) {
        json = Object.fromEntries(new URLSearchParams(body));
      } else if (body) {
        try {
          json = JSON.parse(body);
        } catch {
          json = null;
        }
      }
      const call: GoogleCall = {
        method: req.method ?? "GET",
        url: req.url ?? "/",
        authorization: req.headers.authorization,
        contentType,
        body,
        json,
      };
      calls.push(call);
      const reply = route(call);
      res.writeHead(reply.status, { "content-type": "application/json; charset=UTF-8" });
      res.end(JSON.stringify(reply.body));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    tokenUrl: `${url}/token`,
    calls,
    accessToken: () => token,
    failNext: (
      method,
      path,
      status,
      body = { error: { code: status, message: "stand-in failure" } },
    ) => {
      failures.push({ method, path, reply: { status, body } });
    },
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

const SAMPLE_RAW = Buffer.from(
  "From: Ada <ada@example.com>\r\nTo: me@example.com\r\nSubject: Invoice 7\r\nMessage-ID: <orig-1@mail.example.com>\r\n\r\nPlease pay.\r\n",
).toString("base64url");

/** Google's documented answers, shaped per resource. */
function answer(method: string, path: string, json: unknown): Reply {
  const sheets = /^\/v4\/spreadsheets\/([^/]+)\/values\/([^/?]+)$/.exec(path);
  if (sheets) {
    const [, spreadsheetId, rangeText] = sheets;
    const range = decodeURIComponent(rangeText ?? "");
    if (method === "POST" && range.endsWith(":append")) {
      return {
        status: 200,
        body: {
          spreadsheetId,
          tableRange: "Sheet1!A1:C4",
          updates: { spreadsheetId, updatedRange: range.replace(/:append$/, ""), updatedRows: 1 },
        },
      };
    }
    if (method === "PUT") {
      const values = (json as { values?: unknown[][] } | null)?.values ?? [];
      return {
        status: 200,
        body: {
          spreadsheetId,
          updatedRange: range,
          updatedRows: 1,
          updatedCells: values[0]?.length ?? 0,
        },
      };
    }
  }
  const gmail = /^\/gmail\/v1\/users\/me\/(.+)$/.exec(path)?.[1];
  if (gmail !== undefined) return gmailAnswer(method, gmail, json);
  return { status: 404, body: { error: { code: 404, message: "Not Found" } } };
}

function gmailAnswer(method: string, rest: string, json: unknown): Reply {
  const ok = (body: unknown): Reply => ({ status: 200, body });
  if (method === "POST" && rest === "messages/send") {
    const threadId = (json as { threadId?: string } | null)?.threadId ?? "thread-new";
    return ok({ id: "msg-sent-1", threadId, labelIds: ["SENT"] });
  }
  if (method === "POST" && rest === "drafts")
    return ok({ id: "draft-1", message: { id: "msg-draft-1", threadId: "thread-d" } });
  if (method === "POST" && rest === "drafts/send")
    return ok({ id: "msg-from-draft", threadId: "thread-d", labelIds: ["SENT"] });
  if (method === "GET" && rest === "messages")
    return ok({ messages: [{ id: "msg-1", threadId: "thread-1" }], resultSizeEstimate: 1 });
  if (method === "GET" && rest === "threads")
    return ok({ threads: [{ id: "thread-1", snippet: "Please pay." }], resultSizeEstimate: 1 });
  if (method === "GET" && rest === "labels") {
    return ok({
      labels: [
        { id: "INBOX", name: "INBOX", type: "system" },
        { id: "Label_7", name: "Invoices", type: "user" },
      ],
    });
  }
  if (method === "POST" && rest === "labels")
    return ok({ id: "Label_9", name: (json as { name?: string } | null)?.name, type: "user" });
  const message = /^messages\/([A-Za-z0-9_-]+)(\/(modify|trash))?$/.exec(rest);
  if (message) {
    const id = message[1];
    if (method === "POST" && message[3] === "modify") {
      const body = json as { addLabelIds?: string[]; removeLabelIds?: string[] };
      const labels = new Set(["INBOX", "UNREAD"]);
      for (const label of body.addLabelIds ?? []) labels.add(label);
      for (const label of body.removeLabelIds ?? []) labels.delete(label);
      return ok({ id, threadId: "thread-1", labelIds: [...labels] });
    }
    if (method === "POST" && message[3] === "trash")
      return ok({ id, threadId: "thread-1", labelIds: ["TRASH"] });
    if (method === "GET") {
      return ok({
        id,
        threadId: "thread-1",
        snippet: "Please pay.",
        raw: SAMPLE_RAW,
        payload: {
          headers: [
            { name: "From", value: "Ada <ada@example.com>" },
            { name: "Subject", value: "Invoice 7" },
            { name: "Message-ID", value: "<orig-1@mail.example.com>" },
          ],
        },
      });
    }
  }
  const thread = /^threads\/([A-Za-z0-9_-]+)$/.exec(rest);
  if (thread && method === "GET") return ok({ id: thread[1], messages: [{ id: "msg-1" }] });
  return { status: 404, body: { error: { code: 404, message: "Not Found" } } };
}

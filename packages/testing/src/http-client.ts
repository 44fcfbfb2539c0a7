import { type IncomingMessage, request } from "node:http";

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or the text when it is not JSON. */
  body: unknown;
}

/** Reads a whole answer: its status, headers and body (JSON when it parses, else text). */
function readAnswer(res: IncomingMessage): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let data = "";
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      data += chunk;
    });
    res.on("error", reject);
    res.on("end", () => {
      let body: unknown = data;
      try {
        body = data ? JSON.parse(data) : null;
      } catch {
        body = data;
      }
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
    });
  });
}

/**
 * One request over a real socket with node:http, which (unlike fetch) can pick the local address
 * the connection comes from: `127.0.0.2` is another client to the server, on the same machine.
 */
export function send(
  url: string,
  options: {
    method?: string;
    body?: unknown;
    headers?: Record<string, string>;
    localAddress?: string;
  } = {},
): Promise<RawAnswer> {
  const text = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? (text === undefined ? "GET" : "POST"),
        localAddress: options.localAddress,
        agent: false,
        headers: {
          ...(text === undefined ? {} : { "content-type": "application/json" }),
          ...options.headers,
        },
      },
      (res) => {
        readAnswer(res).then(resolve, reject);
      },
    );
    req.on("error", reject);
    req.end(text);
  });
}

export interface StreamedAnswer {
  status: number;
  /** Parsed JSON, or the text when it is not JSON. */
  body: unknown;
  /** Bytes written before the answer came. */
  sentBytes: number;
  /** Whether the whole body had been sent when the answer came. */
  sentAll: boolean;
}

/**
 * Uploads `totalBytes` in chunks (chunked encoding, or the declared `content-length` header when
 * given), writing only as fast as the server reads, and stops writing as soon as an answer
 * arrives. A server that refuses early answers with `sentAll` false. Such a server answers and
 * closes; when the close reaches this client's next write before the
 * answer is parsed, the write fails (EPIPE, ECONNRESET) and the answer is lost with it. That is
 * a race of the client, not an answer: the upload is made again, at most three times.
 */
export async function streamUpload(
  url: string,
  options: { totalBytes: number; headers?: Record<string, string>; chunkBytes?: number },
): Promise<StreamedAnswer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await streamUploadOnce(url, options);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= 3 || (code !== "EPIPE" && code !== "ECONNRESET")) throw error;
    }
  }
}

function streamUploadOnce(
  url: string,
  options: { totalBytes: number; headers?: Record<string, string>; chunkBytes?: number },
): Promise<StreamedAnswer> {
  const chunk = Buffer.alloc(options.chunkBytes ?? 64 * 1024, "a");
  return new Promise((resolve, reject) => {
    let sentBytes = 0;
    let sentAll = false;
    let answered = false;
    let wake: () => void = () => {};
    const req = request(url, {
      method: "POST",
      agent: false,
      headers: { "content-type": "application/json", ...options.headers },
    });
    req.on("response", (res) => {
      answered = true;
      wake();
      readAnswer(res).then(
        ({ status, body }) => resolve({ status, body, sentBytes, sentAll }),
        reject,
      );
    });
    // The server may cut the connection after answering; only an error before it counts.
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    const pump = async () => {
      while (!answered && sentBytes < options.totalBytes) {
        const piece = chunk.subarray(0, Math.min(chunk.length, options.totalBytes - sentBytes));
        sentBytes += piece.length;
        if (!req.write(piece)) {
          await new Promise<void>((go) => {
            wake = go;
            req.once("drain", go);
          });
        }
        await new Promise((next) => setImmediate(next));
      }
      if (!answered) {
        sentAll = true;
        req.end();
      }
    };
    pump().catch(reject);
  });
}

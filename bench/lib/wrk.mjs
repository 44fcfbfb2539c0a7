// Closed-loop peak with wrk (C, epoll): a load generator far cheaper per request than any
// Node client, so on a 2-core machine it leaves the server as much CPU as possible.
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const SCRIPT = fileURLToPath(new URL("./post.lua", import.meta.url));

/** The wrk version line, or null when wrk is not installed. */
export function wrkVersion() {
  try {
    return execFileSync("wrk", ["--version"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    })
      .split("\n")[0]
      .trim();
  } catch (error) {
    // wrk --version exits 1 after printing its banner.
    const out = `${error.stdout ?? ""}`.split("\n")[0]?.trim();
    return out?.startsWith("wrk") ? out : null;
  }
}

/**
 * Runs wrk for `durationMs` with `connections` connections. Requests still in flight when wrk
 * stops are abandoned without an answer (at most `connections` of them); the server may still
 * store them, which the balance check allows for.
 */
export function wrkClosedLoop({ url, path, body, headers = {}, connections = 64, durationMs }) {
  const dir = mkdtempSync(join(tmpdir(), "hookflow-wrk-"));
  const bodyFile = join(dir, "body.json");
  writeFileSync(bodyFile, body);
  const header = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join("");
  if (Object.keys(headers).length > 1) throw new Error("wrk driver takes at most one extra header");
  const args = [
    "-t1",
    `-c${connections}`,
    `-d${Math.max(1, Math.round(durationMs / 1000))}s`,
    "--timeout",
    "10s",
    "-s",
    SCRIPT,
    `${url}${path}`,
  ];
  return new Promise((resolve, reject) => {
    execFile(
      "wrk",
      args,
      { env: { ...process.env, WRK_BODY_FILE: bodyFile, WRK_HEADER: header }, maxBuffer: 1 << 20 },
      (error, stdout) => {
        rmSync(dir, { recursive: true, force: true });
        if (error) return reject(error);
        const line = stdout.split("\n").find((l) => l.startsWith("WRK_JSON "));
        if (!line) return reject(new Error(`no result from wrk: ${stdout}`));
        const r = JSON.parse(line.slice("WRK_JSON ".length));
        const seconds = r.durationUs / 1e6;
        const ok = r.requests - r.non2xx;
        const socketErrors = r.connect + r.read + r.write + r.timeout;
        resolve({
          driver: "wrk",
          ok,
          errors: r.non2xx + socketErrors,
          non2xx: r.non2xx,
          socketErrors,
          // Abandoned at the stop: sent, maybe stored, never answered.
          unansweredAtMost: connections,
          rps: ok / seconds,
          seconds,
          latency: { p50: r.p50, p99: r.p99, max: r.max, avg: r.mean, count: r.requests },
        });
      },
    );
  });
}

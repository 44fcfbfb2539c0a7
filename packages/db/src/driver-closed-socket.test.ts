import { execFile } from "node:child_process";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

const base = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/**
 * postgres.js 3.4.9 wrote to a connection whose socket had closed from a timer, where the
 * TypeError escaped every query and ended the process (upstream porsager/postgres#1154, #1208);
 * Hookflow's patch (patches/postgres@3.4.9.patch) rejects the waiting queries instead. The
 * scenario runs in a child process, so the old behaviour shows as a crash of that process.
 */
const SCENARIO = `
import postgres from "postgres";
const url = process.env.DATABASE_URL;
let closed;
const connectionClosed = new Promise((resolve) => (closed = resolve));
const sql = postgres(url, { max: 2, onnotice: () => {}, onclose: () => closed() });
const admin = postgres(url, { max: 1, onnotice: () => {} });
const reserved = await sql.reserve();
const [{ pid }] = await reserved\`select pg_backend_pid() as pid\`;
await admin\`select pg_terminate_backend(\${pid})\`;
// The driver has seen the reserved connection close (its socket is gone).
await connectionClosed;
try {
  await reserved\`select 1\`;
  console.log("answered");
} catch (error) {
  console.log("rejected", error.code);
}
reserved.release();
await sql.end({ timeout: 1 });
await admin.end();
`;

describe("the Postgres driver", () => {
  it("rejects a query on a connection whose backend went away instead of ending the process", async () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve) => {
        const child = execFile(
          process.execPath,
          ["--input-type=module", "-e", SCENARIO],
          { cwd: here, env: { ...process.env, DATABASE_URL: base }, timeout: 20_000 },
          (error, stdout, stderr) =>
            resolve({ code: error ? (child.exitCode ?? 1) : 0, stdout, stderr }),
        );
      },
    );
    expect(result.stderr).not.toMatch(/TypeError/);
    expect(result.stdout.trim()).toBe("rejected CONNECTION_CLOSED");
    expect(result.code).toBe(0);
  });
});

import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const SDK = fileURLToPath(new URL("..", import.meta.url));
const ROOT = join(SDK, "..", "..");
const QUIET = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };

describe("the SDK's OpenAPI tooling", () => {
  it("keeps src/generated/schema.ts equal to what openapi-typescript makes of openapi.json (`pnpm openapi` regenerates it)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hookflow-sdk-schema-"));
    try {
      const out = join(dir, "schema.ts");
      await run(
        process.execPath,
        [
          join(SDK, "node_modules/openapi-typescript/bin/cli.js"),
          "openapi.json",
          "--default-non-nullable",
          "false",
          "-o",
          out,
        ],
        { cwd: SDK, env: QUIET },
      );
      const committed = await readFile(join(SDK, "src/generated/schema.ts"), "utf8");
      if (committed !== (await readFile(out, "utf8"))) {
        throw new Error(
          "packages/sdk/src/generated/schema.ts is stale: run `pnpm openapi` at the repository root",
        );
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("lints openapi.json clean with Redocly's recommended rules (redocly.yaml)", async () => {
    const result = await run(
      process.execPath,
      [
        join(SDK, "node_modules/@redocly/cli/bin/cli.js"),
        "lint",
        "packages/sdk/openapi.json",
        "--config",
        "redocly.yaml",
        "--format",
        "json",
      ],
      { cwd: ROOT, env: QUIET, maxBuffer: 16 * 1024 * 1024 },
    ).catch((error: { stdout?: string; stderr?: string }) => error);
    const report = JSON.parse(result.stdout ?? "{}") as {
      totals?: { errors: number; warnings: number; ignored: number };
      problems?: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>;
    };
    const problems = (report.problems ?? []).map(
      (p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`,
    );
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
});

import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const workerRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * A fresh process records every module it loads (synchronous module hooks see `import` and
 * `require` alike), imports the worker's entry, then loads the MongoDB driver the way the first
 * mongo action does. docs/decisions.md, "Loading dependencies".
 */
const probe = `
import { registerHooks } from "node:module";
const loaded = [];
registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
await import("@hookflow/worker");
const atStart = [...loaded];
const { loadMongoDriver } = await import("./dist/actions/mongo-driver.js");
await loadMongoDriver();
process.stdout.write(JSON.stringify({ atStart, afterMongo: loaded }));
`;

interface Loaded {
  atStart: string[];
  afterMongo: string[];
}

const inPackage = (name: string) => (url: string) => url.includes(`/node_modules/${name}/`);

describe("the worker's module graph", () => {
  it("loads drizzle-orm only as CommonJS, and neither MongoDB's driver nor nodemailer until used", async () => {
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", probe], {
      cwd: workerRoot,
      maxBuffer: 64 * 1024 * 1024,
    });
    const { atStart, afterMongo } = JSON.parse(stdout) as Loaded;

    const drizzle = atStart.filter(inPackage("drizzle-orm"));
    expect(drizzle.length).toBeGreaterThan(50);
    expect(drizzle.filter((url) => !url.endsWith(".cjs"))).toEqual([]);

    expect(atStart.filter(inPackage("mongodb"))).toEqual([]);
    expect(atStart.filter(inPackage("nodemailer"))).toEqual([]);
    // The probe sees the driver once a mongo action loads it.
    expect(afterMongo.filter(inPackage("mongodb")).length).toBeGreaterThan(10);
  }, 60_000);
});

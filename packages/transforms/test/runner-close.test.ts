import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const DIST = fileURLToPath(new URL("../dist/index.js", import.meta.url));

// A process whose only work is the runner: after its last call nothing else keeps it alive (the
// sandbox processes are unref'd), so `close()` must hold them itself until they exit, or the
// process ends before `close()` resolves and the code after it never runs.
describe("TransformRunner.close", () => {
  it("resolves in a process with nothing else alive", () => {
    const script = `
      const { createTransformRunner } = await import(${JSON.stringify(DIST)});
      const runner = createTransformRunner({ jsProcesses: 2 });
      const result = await runner.run({
        mode: "javascript",
        template: "return { n: payload.n + 1 }",
        payload: { n: 1 },
        context: { eventId: "evt_1", webhookId: "wh_1", nodeId: "tn_1" },
      });
      await runner.close();
      console.log(JSON.stringify({ closed: true, result }));
    `;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(child.status).toBe(0);
    expect(JSON.parse(child.stdout.trim())).toMatchObject({
      closed: true,
      result: { ok: true, output: { n: 2 } },
    });
  });
});

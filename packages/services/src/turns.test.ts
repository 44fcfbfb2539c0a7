import { createTurns } from "./turns.js";

/** A task the test finishes when it wants; records when it started. */
function gate(log: string[], name: string) {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const task = async () => {
    log.push(`start ${name}`);
    await done;
    return name;
  };
  return { task, finish };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("turns", () => {
  it("runs at most `limit` tasks at once and the rest in arrival order", async () => {
    const inTurn = createTurns(2);
    const log: string[] = [];
    const [a, b, c, d] = ["a", "b", "c", "d"].map((name) => gate(log, name));
    const results = [a, b, c, d].map((g) => inTurn((g as ReturnType<typeof gate>).task));
    await tick();
    expect(log).toEqual(["start a", "start b"]);
    b?.finish();
    await tick();
    expect(log).toEqual(["start a", "start b", "start c"]);
    a?.finish();
    c?.finish();
    d?.finish();
    expect(await Promise.all(results)).toEqual(["a", "b", "c", "d"]);
    expect(log).toEqual(["start a", "start b", "start c", "start d"]);
  });

  it("frees the turn of a task that throws", async () => {
    const inTurn = createTurns(1);
    await expect(inTurn(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await inTurn(async () => "next")).toBe("next");
  });
});

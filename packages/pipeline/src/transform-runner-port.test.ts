import { MAX_PAYLOAD_DEPTH } from "./payload-depth.js";
import { payloadJson, rememberPayloadJson } from "./payload-json.js";
import { createTransformRunnerPort, type TransformRunnerLike } from "./transform-runner-port.js";

type RunnerInput = Parameters<TransformRunnerLike["run"]>[0];
type RunnerResult = Awaited<ReturnType<TransformRunnerLike["run"]>>;

/** A runner that answers `result` and records what it was asked. */
function fakeRunner(result: RunnerResult) {
  const calls: RunnerInput[] = [];
  const runner: TransformRunnerLike = {
    run: async (input) => {
      calls.push(input);
      return result;
    },
  };
  return { runner, calls };
}

const context = {
  eventId: "evt_1",
  webhookId: "wh_1",
  eventType: null,
  nodeId: "trn_1",
  nodeName: "t",
};

describe("transform runner port", () => {
  it("hands the runner a payload's known JSON text, and nothing when it has none", async () => {
    const { runner, calls } = fakeRunner({ ok: true, output: { b: 1 }, durationMs: 1 });
    const port = createTransformRunnerPort(runner);
    const known = { a: 1 };
    rememberPayloadJson(known, '{"a":1}');
    await port.run({ mode: "jq", template: ".", payload: known, context });
    await port.run({ mode: "jq", template: ".", payload: { fresh: true }, context });
    expect(calls[0]?.payloadJson).toBe('{"a":1}');
    expect(calls[1]?.payloadJson).toBeUndefined();
  });

  it("serializes the output itself as the body and remembers it for the next node", async () => {
    const output = { total: 2.5, lines: [1, 2] };
    const { runner } = fakeRunner({ ok: true, output, durationMs: 1 });
    const result = await createTransformRunnerPort(runner).run({
      mode: "javascript",
      template: "return payload",
      payload: {},
      context,
    });
    expect(result).toEqual({ ok: true, payload: output, body: JSON.stringify(output) });
    expect(payloadJson(output)).toBe(JSON.stringify(output));
  });

  it("serializes a jq output; a non-JSON Handlebars render is sent as its text", async () => {
    const { runner } = fakeRunner({ ok: true, output: { x: "é" }, durationMs: 1 });
    const port = createTransformRunnerPort(runner);
    expect(await port.run({ mode: "jq", template: ".", payload: {}, context })).toEqual({
      ok: true,
      payload: { x: "é" },
      body: '{"x":"é"}',
    });
    const render = fakeRunner({ ok: true, output: "plain text", durationMs: 1 });
    expect(
      await createTransformRunnerPort(render.runner).run({
        mode: "handlebars",
        template: "plain text",
        payload: {},
        context,
      }),
    ).toEqual({ ok: true, payload: "plain text", body: "plain text" });
  });

  it("fails a step whose transform produced no value", async () => {
    const { runner } = fakeRunner({ ok: true, output: undefined, durationMs: 1 });
    const result = await createTransformRunnerPort(runner).run({
      mode: "javascript",
      template: "",
      payload: {},
      context,
    });
    expect(result).toEqual({ ok: false, error: "the transform produced no value" });
  });

  it("fails a step whose output nests past the depth limit, even past what JSON can write", async () => {
    const nested = (depth: number) => JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`);
    const runWith = (output: unknown) =>
      createTransformRunnerPort(fakeRunner({ ok: true, output, durationMs: 1 }).runner).run({
        mode: "jq",
        template: ".",
        payload: {},
        context,
      });
    const error = `the transform output nests more than ${MAX_PAYLOAD_DEPTH} levels deep`;
    for (const depth of [MAX_PAYLOAD_DEPTH + 1, 200_000]) {
      expect(await runWith(nested(depth))).toEqual({ ok: false, error });
    }
    expect((await runWith(nested(MAX_PAYLOAD_DEPTH))).ok).toBe(true);
  });
});

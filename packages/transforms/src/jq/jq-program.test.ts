import {
  buildBatchInput,
  describeJqFailure,
  parseBatchOutput,
  wrapJqProgram,
} from "./jq-program.js";

describe("wrapJqProgram", () => {
  it("puts the user's program on its own lines after the prelude", () => {
    const wrapped = wrapJqProgram(".a # comment \\");
    expect(wrapped.split("\n")[1]).toBe(".a # comment \\");
    expect(wrapped.split("\n")[2]).toBe("");
  });
});

describe("buildBatchInput", () => {
  it("writes one indexed line per payload", () => {
    expect(buildBatchInput(['{"a":1}', "2"])).toBe('[0,{"a":1}]\n[1,2]');
  });
});

describe("parseBatchOutput", () => {
  it.each([
    [
      "first outputs",
      '[0,{"ok":[1]}]\n[1,{"ok":[{"b":2}]}]',
      [
        { ok: true, output: 1 },
        { ok: true, output: { b: 2 } },
      ],
    ],
    [
      "errors and empty outputs",
      '[1,{"error":"boom"}]\n[0,{"ok":[]}]',
      [
        { ok: false, error: "jq program produced no output" },
        { ok: false, error: "jq error: boom" },
      ],
    ],
    [
      "non-string error values as JSON",
      '[0,{"error":{"code":1}}]\n[1,{"error":null}]',
      [
        { ok: false, error: 'jq error: {"code":1}' },
        { ok: false, error: "jq error: null" },
      ],
    ],
    [
      "duplicate and foreign lines by keeping the first",
      '[0,{"ok":[1]}]\n[0,{"ok":[9]}]\n[7,{"ok":[9]}]\n"junk"\n[1,{"ok":[2]}]',
      [
        { ok: true, output: 1 },
        { ok: true, output: 2 },
      ],
    ],
    [
      "missing lines as missing results",
      '[1,{"ok":[2]}]',
      [
        { ok: false, error: "gone" },
        { ok: true, output: 2 },
      ],
    ],
  ])("reads %s", (_name, stdout, expected) => {
    expect(parseBatchOutput(stdout, 2, 1000, "gone")).toEqual(expected);
  });

  it("refuses an output line longer than the output limit", () => {
    const line = `[0,{"ok":["${"x".repeat(200)}"]}]`;
    expect(parseBatchOutput(line, 1, 100)).toEqual([
      { ok: false, error: "jq output exceeds the 100-byte limit" },
    ]);
  });
});

describe("describeJqFailure", () => {
  it("reports compile errors with the user's line numbers", () => {
    const stderr =
      "jq: error: syntax error, unexpected '|' at <top-level>, line 3, column 2:\n    | .x\n     ^\njq: 1 compile error";
    expect(describeJqFailure(stderr, ".a |\n.b\n| .x")).toBe(
      "jq compile error: syntax error, unexpected '|' at line 2, column 2",
    );
  });

  it("points past the program when the error lies in the wrapper", () => {
    const stderr =
      "jq: error: syntax error, unexpected end of file at <top-level>, line 4, column 9:\n    ))]}\njq: 1 compile error";
    expect(describeJqFailure(stderr, "(.a")).toBe(
      "jq compile error: syntax error, unexpected end of file at the end of the program",
    );
  });
});

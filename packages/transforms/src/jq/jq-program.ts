import type { TransformOutcome } from "../types.js";

/**
 * Builtins that would reach past the event (other inputs of a batch, the process, stderr) are
 * redefined before the user's program, which cannot name the originals any more. `$ENV` is bound
 * to `{}` the same way.
 */
const PRELUDE = [
  'def input: error("input is not available in transforms");',
  'def inputs: error("inputs is not available in transforms");',
  'def halt: error("halt is not available in transforms");',
  'def halt_error: error("halt_error is not available in transforms");',
  'def halt_error($code): error("halt_error is not available in transforms");',
  'def input_line_number: error("input_line_number is not available in transforms");',
  "def debug: .; def debug($message): .; def stderr: .;",
  "def input_filename: null; def env: {}; {} as $ENV |",
].join(" ");

/**
 * Wraps a user program so one jq run evaluates a batch: every input is `[index, payload]` and
 * every output is `[index, {"ok": [first output]}]` or `[index, {"error": value}]`. The user's
 * program starts on line 2 and is followed by an empty line, so a trailing `# comment \` cannot
 * swallow the closing parentheses.
 */
export function wrapJqProgram(program: string): string {
  return `${PRELUDE} .[0] as $__hookflow_index | .[1] | [$__hookflow_index, (try {"ok": [limit(1; (\n${program}\n\n))]} catch {"error": .})]`;
}

/** One line of JSON per input: `[index, payload]`. */
export function buildBatchInput(payloadsJson: readonly string[]): string {
  return payloadsJson.map((json, index) => `[${index},${json}]`).join("\n");
}

/**
 * Reads the outputs of a batch run. An input without a line (the program broke out of the
 * wrapper, or jq stopped) gets an error.
 */
export function parseBatchOutput(
  stdout: string,
  count: number,
  maxOutputBytes: number,
  missing = "jq program produced no result",
): TransformOutcome[] {
  const results: (TransformOutcome | undefined)[] = new Array(count);
  for (const line of stdout.split("\n")) {
    if (line === "") continue;
    const index = readIndex(line);
    if (index === undefined || index >= count || results[index] !== undefined) continue;
    results[index] =
      line.length > maxOutputBytes + 64
        ? { ok: false, error: `jq output exceeds the ${maxOutputBytes}-byte limit` }
        : readOutcome(line);
  }
  return Array.from(results, (result) => result ?? { ok: false, error: missing });
}

function readIndex(line: string): number | undefined {
  const match = /^\[(\d+),/.exec(line);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

function readOutcome(line: string): TransformOutcome {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return { ok: false, error: "jq produced output that is not JSON" };
  }
  const body = Array.isArray(parsed) ? (parsed[1] as unknown) : undefined;
  if (typeof body !== "object" || body === null) {
    return { ok: false, error: "jq program produced no result" };
  }
  if ("ok" in body && Array.isArray(body.ok)) {
    return body.ok.length === 0
      ? { ok: false, error: "jq program produced no output" }
      : { ok: true, output: body.ok[0] };
  }
  if ("error" in body) {
    const value = body.error;
    return {
      ok: false,
      error: `jq error: ${typeof value === "string" ? value : JSON.stringify(value)}`,
    };
  }
  return { ok: false, error: "jq program produced no result" };
}

/**
 * Turns jq's stderr of a failed run (a compile error) into one line whose line numbers are the
 * user's: `jq compile error: syntax error, unexpected '|' at line 1, column 5`.
 */
export function describeJqFailure(stderr: string, program: string): string {
  const first = stderr.split("\n").find((line) => line.trim() !== "") ?? "";
  if (first === "") return "jq failed without a message";
  const lastUserLine = program.split("\n").length;
  const message = first
    .replace(/^jq: error: /, "")
    .replace(
      / at <top-level>, line (\d+)(, column \d+)?:?$/,
      (_all, line: string, column?: string) => {
        const userLine = Number(line) - 1;
        if (userLine < 1 || userLine > lastUserLine) return " at the end of the program";
        return ` at line ${userLine}${column ?? ""}`;
      },
    )
    .replace(/:$/, "");
  return stderr.includes("compile error") ? `jq compile error: ${message}` : `jq: ${message}`;
}

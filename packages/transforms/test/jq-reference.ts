// jq 1.8 itself (jq-wasm, the build the worker threads run, with the same wrapper), for the
// differential tests of the inline evaluator.
import { createRequire } from "node:module";
import { parseBatchOutput, wrapJqProgram } from "../src/jq/jq-program.js";
import type { TransformOutcome } from "../src/types.js";

interface JqWasm {
  raw(
    input: string,
    query: string,
    flags?: string[],
  ): { stdout: string; stderr: string; exitCode: number };
}

const MAX_OUTPUT = 1024 * 1024;
let jq: JqWasm | undefined;

export async function loadReferenceJq(): Promise<void> {
  const load = createRequire(import.meta.url)("jq-wasm") as { loadJq: () => Promise<JqWasm> };
  jq = await load.loadJq();
}

/** What the worker's jq threads answer for one call. */
export function referenceJq(program: string, inputJson: string): TransformOutcome {
  if (!jq) throw new Error("call loadReferenceJq first");
  let result: { stdout: string; stderr: string };
  try {
    result = jq.raw(`[0,${inputJson}]`, wrapJqProgram(program), ["-c"]);
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error);
    return { ok: false, error: `jq failed: ${stderr.split("\n")[0]}` };
  }
  return parseBatchOutput(result.stdout, 1, MAX_OUTPUT)[0] as TransformOutcome;
}

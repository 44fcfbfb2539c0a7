// @ts-check
// One isolated-vm isolate per sandbox process, and in it one warm context per node: a context is
// hardened once (built-ins frozen, see HARDEN_SOURCE), gets the node's program installed once (a
// runner around the user's code, compiled once per isolate) and then serves up to
// CALLS_PER_CONTEXT calls of the same code of the same node, each one call of that runner; after
// each call a reset deletes every global the call added, and a context that cannot be brought back
// to its baseline, or whose call was stopped by a limit, is discarded. Runs inside a sandbox process (sandbox-host.mjs), so even a crash of V8
// cannot take the worker down. The process does nothing else, so every isolate operation is
// synchronous: a call runs on the process's own thread, without the thread hand-offs (each a
// costly wake-up) of the async API.
import { evaluateModule, loadProgram } from "./sandbox-programs.mjs";
import {
  discardRuntime,
  ensureRuntime,
  prepareSpare,
  returnContext,
  takeContext,
} from "./sandbox-runtime.mjs";

export { CALLS_PER_CONTEXT } from "./sandbox-runtime.mjs";

/**
 * @typedef {import("./sandbox-runtime.mjs").SandboxOptions} SandboxOptions
 * @typedef {import("./sandbox-runtime.mjs").SandboxState} SandboxState
 * @typedef {import("./sandbox-runtime.mjs").Runtime} Runtime
 * @typedef {import("./sandbox-runtime.mjs").Runner} Runner
 * @typedef {import("./sandbox-runtime.mjs").Warm} Warm
 * @typedef {{ ok: true, json: string } | { ok: false, error: string, timedOut?: true }} SandboxResult
 */

/** @param {SandboxOptions} options */
export function createSandbox(options) {
  /** @type {SandboxState} */
  const sandbox = { options, runtime: undefined, contextsCreated: 0 };
  return {
    /** @param {string} scope @param {string} code @param {string} inputJson */
    run: (scope, code, inputJson) => runCall(sandbox, scope, code, inputJson),
    prepareSpare: () => prepareSpare(sandbox),
    stats: () => stats(sandbox),
    dispose: () => discardRuntime(sandbox),
  };
}

/**
 * @param {SandboxState} sandbox
 * @param {string} scope the node the call belongs to; calls of different scopes or codes never
 *   share a context
 * @param {string} code
 * @param {string} inputJson `{"payload": ..., "context": ...}`
 * @returns {SandboxResult}
 */
function runCall(sandbox, scope, code, inputJson) {
  const { options } = sandbox;
  let started = 0;
  const remaining = () =>
    Math.max(1, Math.ceil(options.cpuLimitMs - (performance.now() - started)));
  const rt = ensureRuntime(sandbox);
  const key = `${scope}\u0000${code}`;
  /** @type {Warm | undefined} */
  let warm;
  /** A module's runner, made for this call only. @type {Runner | undefined} */
  let moduleRunner;
  // Only a call that ended normally (a result or the user's own exception) leaves its context
  // fit for reuse; one stopped by a limit or by anything unexpected may have left it half-done.
  let reusable = false;
  try {
    const program = loadProgram(rt, code, options.maxOutputBytes);
    if (program.kind === "invalid") return { ok: false, error: program.error };
    warm = takeContext(sandbox, rt, key);
    const context = warm.context;
    started = performance.now();
    /** @type {Runner} */
    let runner;
    if (program.kind === "script") {
      warm.runner ??= program.script.runSync(context, { reference: true, timeout: remaining() });
      runner = warm.runner;
    } else {
      evaluateModule(rt, context, code, program, remaining());
      moduleRunner = rt.moduleRunner.runSync(context, { reference: true, timeout: remaining() });
      runner = moduleRunner;
    }
    let output = runner.applySync(undefined, [inputJson], { timeout: remaining() });
    if (output === "P") output = runner.applySync(undefined, [null], { timeout: remaining() });
    reusable = true;
    return resultOf(output);
  } catch (error) {
    const message = classify(sandbox, rt, error);
    return message === timeLimitMessage(options)
      ? { ok: false, error: message, timedOut: true }
      : { ok: false, error: message };
  } finally {
    if (moduleRunner && !rt.isolate.isDisposed) moduleRunner.release();
    if (warm) returnContext(options, rt, key, warm, reusable);
  }
}

/**
 * A runner's answer: "O" + the output's JSON, or "E" + the error of the user's code.
 * @param {unknown} output @returns {SandboxResult}
 */
function resultOf(output) {
  if (typeof output !== "string") return { ok: false, error: "the transform produced no result" };
  return output.startsWith("O")
    ? { ok: true, json: output.slice(1) }
    : { ok: false, error: output.slice(1, 2001) };
}

/** @param {SandboxOptions} options */
function timeLimitMessage(options) {
  return `JavaScript transform exceeded the ${options.cpuLimitMs} ms time limit`;
}

/** @param {SandboxState} sandbox @param {Runtime} rt @param {unknown} error */
function classify(sandbox, rt, error) {
  const message = error instanceof Error ? error.message : String(error);
  if (rt.isolate.isDisposed) {
    discardRuntime(sandbox);
    return `JavaScript transform exceeded the ${sandbox.options.memoryLimitMb} MB memory limit`;
  }
  if (/timed out/i.test(message)) return timeLimitMessage(sandbox.options);
  const name = error instanceof Error && error.name !== "Error" ? `${error.name}: ` : "";
  return `${name}${message}`.slice(0, 2000);
}

/**
 * How many contexts are warm, and how many were made so far (for tests and diagnostics).
 * @param {SandboxState} sandbox
 */
function stats(sandbox) {
  return {
    warmContexts: sandbox.runtime?.warm.size ?? 0,
    contextsCreated: sandbox.contextsCreated,
  };
}

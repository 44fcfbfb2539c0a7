// @ts-check
// One isolated-vm isolate, reused across calls; a fresh context for every call. Runs inside a
// sandbox process (sandbox-host.mjs), so even a crash of V8 cannot take the worker down. The
// process does nothing else, so every isolate operation is synchronous: a call runs on the
// process's own thread, without the thread hand-offs (each a costly wake-up) of the async API.
import ivm from "isolated-vm";
import {
  COLLECT_SOURCE,
  functionFormScript,
  moduleRunnerScript,
  PRELUDE_SOURCE,
  USER_MODULE_SPECIFIER,
  WRAPPER_MODULE_SOURCE,
} from "./sandbox-sources.mjs";

/**
 * @typedef {{ cpuLimitMs: number, memoryLimitMb: number, maxOutputBytes: number }} SandboxOptions
 * @typedef {{ ok: true, json: string } | { ok: false, error: string, timedOut?: true }} SandboxResult
 * @typedef {{ kind: "script", script: ivm.Script }
 *   | { kind: "module", cachedData: ivm.ExternalCopy<ArrayBuffer> | undefined }
 *   | { kind: "invalid", error: string }} Program
 * @typedef {{ isolate: ivm.Isolate, programs: Map<string, Program>, prelude: ivm.Script,
 *   moduleRunner: ivm.Script, collect: ivm.Script,
 *   wrapperCache: ivm.ExternalCopy<ArrayBuffer> | undefined,
 *   spare: ivm.Context | undefined }} Runtime
 */

const CACHED_PROGRAMS = 100;
const MODULE_SYNTAX = /\b(?:export|import)\b/;

/** @param {SandboxOptions} options */
export function createSandbox(options) {
  /** @type {Runtime | undefined} */
  let runtime;

  /** @returns {Runtime} */
  function ensureRuntime() {
    if (runtime && !runtime.isolate.isDisposed) return runtime;
    const isolate = new ivm.Isolate({ memoryLimit: options.memoryLimitMb });
    const wrapper = /** @type {ivm.Module & ivm.CachedDataResult} */ (
      isolate.compileModuleSync(WRAPPER_MODULE_SOURCE, { produceCachedData: true })
    );
    const wrapperCache = wrapper.cachedData;
    wrapper.release();
    runtime = {
      isolate,
      programs: new Map(),
      prelude: isolate.compileScriptSync(PRELUDE_SOURCE),
      moduleRunner: isolate.compileScriptSync(moduleRunnerScript(options.maxOutputBytes)),
      collect: isolate.compileScriptSync(COLLECT_SOURCE),
      wrapperCache,
      spare: undefined,
    };
    return runtime;
  }

  /**
   * A fresh context for every call: the spare made while the sandbox was idle (creating a context
   * is most of a call's cost; the spare is as untouched as one made on demand), or a new one.
   * @param {Runtime} rt @returns {ivm.Context}
   */
  function takeContext(rt) {
    const spare = rt.spare;
    rt.spare = undefined;
    return spare ?? rt.isolate.createContextSync();
  }

  /** Makes the next call's context ahead of time; for when the sandbox has nothing to do. */
  function prepareSpare() {
    const rt = runtime;
    if (!rt || rt.spare || rt.isolate.isDisposed) return;
    try {
      rt.spare = rt.isolate.createContextSync();
    } catch {
      // The isolate is at its memory limit; the next call finds out and starts over.
    }
  }

  function discardRuntime() {
    const current = runtime;
    runtime = undefined;
    if (current && !current.isolate.isDisposed) current.isolate.dispose();
  }

  /** @param {Runtime} rt @param {string} code @returns {Program} */
  function loadProgram(rt, code) {
    const cached = rt.programs.get(code);
    if (cached) {
      rt.programs.delete(code);
      rt.programs.set(code, cached);
      return cached;
    }
    const program = compileProgram(rt.isolate, code, options.maxOutputBytes);
    rt.programs.set(code, program);
    if (rt.programs.size > CACHED_PROGRAMS) {
      const [oldestCode, oldest] = rt.programs.entries().next().value ?? [];
      if (oldestCode !== undefined) rt.programs.delete(oldestCode);
      if (oldest?.kind === "script") oldest.script.release();
    }
    return program;
  }

  /**
   * @param {string} code
   * @param {string} inputJson `{"payload": ..., "context": ...}`
   * @returns {SandboxResult}
   */
  function run(code, inputJson) {
    let started = 0;
    const remaining = () =>
      Math.max(1, Math.ceil(options.cpuLimitMs - (performance.now() - started)));
    const rt = ensureRuntime();
    /** @type {ivm.Context | undefined} */
    let context;
    try {
      const program = loadProgram(rt, code);
      if (program.kind === "invalid") return { ok: false, error: program.error };
      context = takeContext(rt);
      started = performance.now();
      let script = program.kind === "script" ? program.script : rt.moduleRunner;
      if (program.kind === "module") {
        rt.prelude.runSync(context, { timeout: remaining() });
        evaluateModule(rt, context, code, program, remaining());
        script = rt.moduleRunner;
      }
      context.global.setSync("__hookflow_input", inputJson);
      let output = script.runSync(context, { timeout: remaining(), copy: true });
      if (output === "P")
        output = rt.collect.runSync(context, { timeout: remaining(), copy: true });
      if (typeof output !== "string")
        return { ok: false, error: "the transform produced no result" };
      return output.startsWith("O")
        ? { ok: true, json: output.slice(1) }
        : { ok: false, error: output.slice(1, 2001) };
    } catch (error) {
      const message = classify(rt, error);
      return message === timeLimitMessage()
        ? { ok: false, error: message, timedOut: true }
        : { ok: false, error: message };
    } finally {
      if (context && !rt.isolate.isDisposed) context.release();
    }
  }

  /**
   * @param {Runtime} rt @param {ivm.Context} context @param {string} code
   * @param {{ cachedData: ivm.ExternalCopy<ArrayBuffer> | undefined }} program @param {number} timeout
   */
  function evaluateModule(rt, context, code, program, timeout) {
    const user = rt.isolate.compileModuleSync(code, {
      filename: "transform.mjs",
      ...(program.cachedData ? { cachedData: program.cachedData } : {}),
    });
    let wrapper;
    try {
      wrapper = rt.isolate.compileModuleSync(
        WRAPPER_MODULE_SOURCE,
        rt.wrapperCache ? { cachedData: rt.wrapperCache } : {},
      );
      wrapper.instantiateSync(context, (specifier) => {
        if (specifier === USER_MODULE_SPECIFIER) return user;
        throw new Error(`imports are not available in transforms ("${specifier}")`);
      });
      wrapper.evaluateSync({ timeout });
    } finally {
      user.release();
      wrapper?.release();
    }
  }

  function timeLimitMessage() {
    return `JavaScript transform exceeded the ${options.cpuLimitMs} ms time limit`;
  }

  /** @param {Runtime} rt @param {unknown} error */
  function classify(rt, error) {
    const message = error instanceof Error ? error.message : String(error);
    if (rt.isolate.isDisposed) {
      discardRuntime();
      return `JavaScript transform exceeded the ${options.memoryLimitMb} MB memory limit`;
    }
    if (/timed out/i.test(message)) return timeLimitMessage();
    const name = error instanceof Error && error.name !== "Error" ? `${error.name}: ` : "";
    return `${name}${message}`.slice(0, 2000);
  }

  return { run, prepareSpare, dispose: discardRuntime };
}

/**
 * Compiles code in function form, or as an ES module when it only parses as one.
 * @param {ivm.Isolate} isolate @param {string} code @param {number} maxOutputChars
 * @returns {Program}
 */
function compileProgram(isolate, code, maxOutputChars) {
  const { source, lineOffset } = functionFormScript(code, maxOutputChars);
  try {
    const script = isolate.compileScriptSync(source, { filename: "transform.js", lineOffset });
    return { kind: "script", script };
  } catch (scriptError) {
    if (!MODULE_SYNTAX.test(code))
      return { kind: "invalid", error: describeCompileError(scriptError) };
    try {
      const module = /** @type {ivm.Module & ivm.CachedDataResult} */ (
        isolate.compileModuleSync(code, { filename: "transform.mjs", produceCachedData: true })
      );
      const cachedData = module.cachedData;
      module.release();
      return { kind: "module", cachedData };
    } catch (moduleError) {
      return { kind: "invalid", error: describeCompileError(moduleError) };
    }
  }
}

/** @param {unknown} error */
function describeCompileError(error) {
  const message = error instanceof Error ? error.message : String(error);
  return `SyntaxError: ${message}`.slice(0, 2000);
}

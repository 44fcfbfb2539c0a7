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
import ivm from "isolated-vm";
import { moduleAsFunctionBody } from "./module-rewrite.mjs";
import {
  functionFormScript,
  HARDEN_SOURCE,
  moduleFunctionScript,
  moduleRunnerScript,
  USER_MODULE_SPECIFIER,
  WRAPPER_MODULE_SOURCE,
} from "./sandbox-sources.mjs";

/**
 * @typedef {{ cpuLimitMs: number, memoryLimitMb: number, maxOutputBytes: number,
 *   warmContexts: number, contextIdleMs?: number }} SandboxOptions
 * @typedef {{ ok: true, json: string } | { ok: false, error: string, timedOut?: true }} SandboxResult
 * @typedef {ivm.Reference<(raw: string | null) => string>} Runner
 * @typedef {{ kind: "script", script: ivm.Script }
 *   | { kind: "module", cachedData: ivm.ExternalCopy<ArrayBuffer> | undefined }
 *   | { kind: "invalid", error: string }} Program
 *   A "script" evaluates to the program's runner (function form, or a module rewritten as a
 *   function); a "module" stays a module, evaluated anew on every call.
 * @typedef {{ context: ivm.Context, reset: ivm.Reference<() => boolean>, calls: number,
 *   lastUsedAt: number, runner: Runner | undefined }} Warm
 *   `runner`: the program installed in the context (a "script" program; a context serves one).
 * @typedef {{ isolate: ivm.Isolate, programs: Map<string, Program>, harden: ivm.Script,
 *   moduleRunner: ivm.Script, wrapperCache: ivm.ExternalCopy<ArrayBuffer> | undefined,
 *   warm: Map<string, Warm>, spare: Warm | undefined }} Runtime
 */

const CACHED_PROGRAMS = 100;
/** Calls one context serves before it is replaced (bounds whatever a context slowly gathers). */
export const CALLS_PER_CONTEXT = 1_000;
/** Heap a hardened context keeps (measured about 230 KB), budgeted on top of the call's limit. */
const CONTEXT_HEAP_MB = 0.25;
/**
 * A full set of warm contexts gives one up for a new node only once its least recently used one
 * has been idle this long; until then the new node's calls use a context each. (Plain LRU would
 * thrash: with a few more busy nodes than places, every call would evict the next one needed.)
 */
const CONTEXT_IDLE_MS = 10_000;
/** The reset is our own code and quick; a call that made it slow loses its context. */
const RESET_TIMEOUT_MS = 50;
const MODULE_SYNTAX = /\b(?:export|import)\b/;

/** @param {SandboxOptions} options */
export function createSandbox(options) {
  /** @type {Runtime | undefined} */
  let runtime;
  /** Hardened contexts made since the sandbox started (spares included). */
  let contextsCreated = 0;

  /** @returns {Runtime} */
  function ensureRuntime() {
    if (runtime && !runtime.isolate.isDisposed) return runtime;
    // The warm contexts live in the same heap as the calls: their share is added to the limit,
    // so a call can still use about `memoryLimitMb` of its own.
    const isolate = new ivm.Isolate({
      memoryLimit: options.memoryLimitMb + Math.ceil((options.warmContexts + 1) * CONTEXT_HEAP_MB),
    });
    const wrapper = /** @type {ivm.Module & ivm.CachedDataResult} */ (
      isolate.compileModuleSync(WRAPPER_MODULE_SOURCE, { produceCachedData: true })
    );
    const wrapperCache = wrapper.cachedData;
    wrapper.release();
    runtime = {
      isolate,
      programs: new Map(),
      harden: isolate.compileScriptSync(HARDEN_SOURCE),
      moduleRunner: isolate.compileScriptSync(moduleRunnerScript(options.maxOutputBytes)),
      wrapperCache,
      warm: new Map(),
      spare: undefined,
    };
    return runtime;
  }

  /** A new hardened context. @param {Runtime} rt @returns {Warm} */
  function hardenedContext(rt) {
    const context = rt.isolate.createContextSync();
    contextsCreated++;
    try {
      const reset = /** @type {ivm.Reference<() => boolean>} */ (
        rt.harden.runSync(context, { reference: true, timeout: 1_000 })
      );
      return { context, reset, calls: 0, lastUsedAt: 0, runner: undefined };
    } catch (error) {
      if (!rt.isolate.isDisposed) context.release();
      throw error;
    }
  }

  /**
   * The node's warm context (most recently used first), the spare made while the sandbox was
   * idle, or a new one.
   * @param {Runtime} rt @param {string} key @returns {Warm}
   */
  function takeContext(rt, key) {
    const warm = rt.warm.get(key);
    if (warm) {
      rt.warm.delete(key);
      return warm;
    }
    const spare = rt.spare;
    rt.spare = undefined;
    return spare ?? hardenedContext(rt);
  }

  /**
   * After a call: resets the context and keeps it for the node's next call, or discards it.
   * @param {Runtime} rt @param {string} key @param {Warm} warm @param {boolean} reusable
   */
  function returnContext(rt, key, warm, reusable) {
    if (rt.isolate.isDisposed) return;
    warm.calls++;
    const now = performance.now();
    const isNew = warm.lastUsedAt === 0;
    warm.lastUsedAt = now;
    // A new node's context is kept only where there is room, or in place of an idle one; the
    // decision comes first so a context about to be dropped is not reset for nothing.
    const evict = isNew && rt.warm.size >= options.warmContexts ? idleVictim(rt, now) : undefined;
    const keep =
      (!isNew || rt.warm.size < options.warmContexts || evict !== undefined) &&
      reusable &&
      warm.calls < CALLS_PER_CONTEXT &&
      reset(warm);
    if (!keep || rt.isolate.isDisposed) {
      releaseContext(rt, warm);
      return;
    }
    if (evict) {
      rt.warm.delete(evict.key);
      releaseContext(rt, evict.warm);
    }
    rt.warm.set(key, warm);
  }

  /**
   * The least recently used warm context, when it has been idle long enough to give its place to
   * a new node. @param {Runtime} rt @param {number} now
   * @returns {{ key: string, warm: Warm } | undefined}
   */
  function idleVictim(rt, now) {
    const [key, warm] = rt.warm.entries().next().value ?? [];
    if (key === undefined || !warm) return undefined;
    return now - warm.lastUsedAt >= (options.contextIdleMs ?? CONTEXT_IDLE_MS)
      ? { key, warm }
      : undefined;
  }

  /** Brings a context back to its baseline; false when it cannot be. @param {Warm} warm */
  function reset(warm) {
    try {
      return warm.reset.applySync(undefined, [], { timeout: RESET_TIMEOUT_MS }) === true;
    } catch {
      return false;
    }
  }

  /** @param {Runtime} rt @param {Warm} warm */
  function releaseContext(rt, warm) {
    if (rt.isolate.isDisposed) return;
    warm.reset.release();
    warm.runner?.release();
    warm.context.release();
  }

  /** Makes a hardened context ahead of time; for when the sandbox has nothing to do. */
  function prepareSpare() {
    const rt = runtime;
    if (!rt || rt.spare || rt.isolate.isDisposed) return;
    try {
      rt.spare = hardenedContext(rt);
    } catch {
      // The isolate is at its memory limit; the next call finds out and starts over.
      if (rt.isolate.isDisposed) discardRuntime();
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
   * @param {string} scope the node the call belongs to; calls of different scopes or codes never
   *   share a context
   * @param {string} code
   * @param {string} inputJson `{"payload": ..., "context": ...}`
   * @returns {SandboxResult}
   */
  function run(scope, code, inputJson) {
    let started = 0;
    const remaining = () =>
      Math.max(1, Math.ceil(options.cpuLimitMs - (performance.now() - started)));
    const rt = ensureRuntime();
    const key = `${scope}\u0000${code}`;
    /** @type {Warm | undefined} */
    let warm;
    /** A module's runner, made for this call only. @type {Runner | undefined} */
    let moduleRunner;
    // Only a call that ended normally (a result or the user's own exception) leaves its context
    // fit for reuse; one stopped by a limit or by anything unexpected may have left it half-done.
    let reusable = false;
    try {
      const program = loadProgram(rt, code);
      if (program.kind === "invalid") return { ok: false, error: program.error };
      warm = takeContext(rt, key);
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
      if (moduleRunner && !rt.isolate.isDisposed) moduleRunner.release();
      if (warm) returnContext(rt, key, warm, reusable);
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

  /** How many contexts are warm, and how many were made so far (for tests and diagnostics). */
  function stats() {
    return { warmContexts: runtime?.warm.size ?? 0, contextsCreated };
  }

  return { run, prepareSpare, stats, dispose: discardRuntime };
}

/**
 * Compiles code in function form, or as an ES module when it only parses as one: rewritten as a
 * function body where that means the same (module-rewrite.mjs), a real module otherwise.
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
    const body = moduleAsFunctionBody(code);
    if (body !== undefined) {
      const rewritten = moduleFunctionScript(body, maxOutputChars);
      try {
        const script = isolate.compileScriptSync(rewritten.source, {
          filename: "transform.mjs",
          lineOffset: rewritten.lineOffset,
        });
        return { kind: "script", script };
      } catch {
        // Not expected (the module parsed); the module compiler has the last word.
      }
    }
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

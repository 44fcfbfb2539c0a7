// @ts-check
// The sandbox's programs: user code compiled once per isolate (sandbox.mjs), in function form or as
// an ES module, and the per-call evaluation of the programs that stay modules.
import { moduleAsFunctionBody } from "./module-rewrite.mjs";
import {
  functionFormScript,
  moduleFunctionScript,
  USER_MODULE_SPECIFIER,
  WRAPPER_MODULE_SOURCE,
} from "./sandbox-sources.mjs";

/**
 * @typedef {import("isolated-vm").Isolate} Isolate
 * @typedef {import("isolated-vm").Context} Context
 * @typedef {import("isolated-vm").Module & import("isolated-vm").CachedDataResult} CompiledModule
 * @typedef {import("isolated-vm").ExternalCopy<ArrayBuffer>} CachedData
 * @typedef {{ kind: "script", script: import("isolated-vm").Script }
 *   | { kind: "module", cachedData: CachedData | undefined }
 *   | { kind: "invalid", error: string }} Program
 *   A "script" evaluates to the program's runner (function form, or a module rewritten as a
 *   function); a "module" stays a module, evaluated anew on every call.
 */

const CACHED_PROGRAMS = 100;
const MODULE_SYNTAX = /\b(?:export|import)\b/;

/**
 * The compiled program of `code`, from the isolate's cache (most recently used last) or compiled
 * now; past CACHED_PROGRAMS the least recently used one is dropped.
 * @param {{ isolate: Isolate, programs: Map<string, Program> }} rt @param {string} code
 * @param {number} maxOutputBytes
 * @returns {Program}
 */
export function loadProgram(rt, code, maxOutputBytes) {
  const cached = rt.programs.get(code);
  if (cached) {
    rt.programs.delete(code);
    rt.programs.set(code, cached);
    return cached;
  }
  const program = compileProgram(rt.isolate, code, maxOutputBytes);
  rt.programs.set(code, program);
  if (rt.programs.size > CACHED_PROGRAMS) {
    const [oldestCode, oldest] = rt.programs.entries().next().value ?? [];
    if (oldestCode !== undefined) rt.programs.delete(oldestCode);
    if (oldest?.kind === "script") oldest.script.release();
  }
  return program;
}

/**
 * @param {{ isolate: Isolate, wrapperCache: CachedData | undefined }} rt @param {Context} context
 * @param {string} code
 * @param {{ cachedData: CachedData | undefined }} program @param {number} timeout
 */
export function evaluateModule(rt, context, code, program, timeout) {
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

/**
 * Compiles code in function form, or as an ES module when it only parses as one: rewritten as a
 * function body where that means the same (module-rewrite.mjs), a real module otherwise.
 * @param {Isolate} isolate @param {string} code @param {number} maxOutputChars
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
      const module = /** @type {CompiledModule} */ (
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

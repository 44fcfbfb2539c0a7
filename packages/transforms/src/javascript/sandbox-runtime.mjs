// @ts-check
// The sandbox's isolate and its warm contexts (sandbox.mjs): made on first use, one hardened
// context per node kept between calls, reset after each call, given up when idle or spent.
import ivm from "isolated-vm";
import { HARDEN_SOURCE, moduleRunnerScript, WRAPPER_MODULE_SOURCE } from "./sandbox-sources.mjs";

/**
 * @typedef {{ cpuLimitMs: number, memoryLimitMb: number, maxOutputBytes: number,
 *   warmContexts: number, contextIdleMs?: number }} SandboxOptions
 * @typedef {ivm.Reference<(raw: string | null) => string>} Runner
 * @typedef {{ context: ivm.Context, reset: ivm.Reference<() => boolean>, calls: number,
 *   lastUsedAt: number, runner: Runner | undefined }} Warm
 *   `runner`: the program installed in the context (a "script" program; a context serves one).
 * @typedef {{ isolate: ivm.Isolate, programs: Map<string, import("./sandbox-programs.mjs").Program>,
 *   harden: ivm.Script, moduleRunner: ivm.Script,
 *   wrapperCache: ivm.ExternalCopy<ArrayBuffer> | undefined,
 *   warm: Map<string, Warm>, spare: Warm | undefined }} Runtime
 * @typedef {{ options: SandboxOptions, runtime: Runtime | undefined, contextsCreated: number }}
 *   SandboxState
 *   One sandbox's state, passed to each function here. `contextsCreated`: hardened contexts made
 *   since the sandbox started (spares included).
 */

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

/**
 * The sandbox's isolate with its compiled helpers; a new one when there is none or the last one
 * was disposed. @param {SandboxState} sandbox @returns {Runtime}
 */
export function ensureRuntime(sandbox) {
  const { options, runtime } = sandbox;
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
  sandbox.runtime = {
    isolate,
    programs: new Map(),
    harden: isolate.compileScriptSync(HARDEN_SOURCE),
    moduleRunner: isolate.compileScriptSync(moduleRunnerScript(options.maxOutputBytes)),
    wrapperCache,
    warm: new Map(),
    spare: undefined,
  };
  return sandbox.runtime;
}

/** @param {SandboxState} sandbox */
export function discardRuntime(sandbox) {
  const current = sandbox.runtime;
  sandbox.runtime = undefined;
  if (current && !current.isolate.isDisposed) current.isolate.dispose();
}

/**
 * Makes a hardened context ahead of time; for when the sandbox has nothing to do.
 * @param {SandboxState} sandbox
 */
export function prepareSpare(sandbox) {
  const rt = sandbox.runtime;
  if (!rt || rt.spare || rt.isolate.isDisposed) return;
  try {
    rt.spare = hardenedContext(sandbox, rt);
  } catch {
    // The isolate is at its memory limit; the next call finds out and starts over.
    if (rt.isolate.isDisposed) discardRuntime(sandbox);
  }
}

/**
 * The node's warm context (most recently used first), the spare made while the sandbox was
 * idle, or a new one.
 * @param {SandboxState} sandbox @param {Runtime} rt @param {string} key @returns {Warm}
 */
export function takeContext(sandbox, rt, key) {
  const warm = rt.warm.get(key);
  if (warm) {
    rt.warm.delete(key);
    return warm;
  }
  const spare = rt.spare;
  rt.spare = undefined;
  return spare ?? hardenedContext(sandbox, rt);
}

/**
 * After a call: resets the context and keeps it for the node's next call, or discards it.
 * @param {SandboxOptions} options @param {Runtime} rt @param {string} key @param {Warm} warm
 * @param {boolean} reusable
 */
export function returnContext(options, rt, key, warm, reusable) {
  if (rt.isolate.isDisposed) return;
  warm.calls++;
  const now = performance.now();
  const isNew = warm.lastUsedAt === 0;
  warm.lastUsedAt = now;
  // A new node's context is kept only where there is room, or in place of an idle one; the
  // decision comes first so a context about to be dropped is not reset for nothing.
  const evict =
    isNew && rt.warm.size >= options.warmContexts
      ? idleVictim(rt, now, options.contextIdleMs ?? CONTEXT_IDLE_MS)
      : undefined;
  const keep =
    (!isNew || rt.warm.size < options.warmContexts || evict !== undefined) &&
    reusable &&
    warm.calls < CALLS_PER_CONTEXT &&
    resetContext(warm);
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

/** A new hardened context. @param {SandboxState} sandbox @param {Runtime} rt @returns {Warm} */
function hardenedContext(sandbox, rt) {
  const context = rt.isolate.createContextSync();
  sandbox.contextsCreated++;
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
 * The least recently used warm context, when it has been idle long enough to give its place to
 * a new node. @param {Runtime} rt @param {number} now @param {number} idleMs
 * @returns {{ key: string, warm: Warm } | undefined}
 */
function idleVictim(rt, now, idleMs) {
  const [key, warm] = rt.warm.entries().next().value ?? [];
  if (key === undefined || !warm) return undefined;
  return now - warm.lastUsedAt >= idleMs ? { key, warm } : undefined;
}

/** Brings a context back to its baseline; false when it cannot be. @param {Warm} warm */
function resetContext(warm) {
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

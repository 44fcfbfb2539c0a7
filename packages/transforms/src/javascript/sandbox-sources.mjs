// @ts-check
// Source text evaluated inside the isolates. Every call gets a fresh context: the prelude removes
// what user code has no use for and the runner calls the user's function with copies of the
// payload and context, then hands back one string: "O" + JSON output, or "E" + error message.
// When the function returns a promise, the runner answers "P" and leaves the final string in
// __hookflow_result once the promise settles; microtasks run before the script's run ends (and
// within its time limit), so the collector script finds it there or never will.

/** Module specifier under which the wrapper module imports the user's module. */
export const USER_MODULE_SPECIFIER = "hookflow:transform";

export const PRELUDE_SOURCE = `delete globalThis.SharedArrayBuffer;
delete globalThis.Atomics;
delete globalThis.WebAssembly;
globalThis.console = Object.freeze({ log() {}, info() {}, warn() {}, error() {}, debug() {} });`;

/** Imports the user's module and exposes its default export to the runner. */
export const WRAPPER_MODULE_SOURCE = `import transform from "${USER_MODULE_SPECIFIER}";
globalThis.__hookflow_fn = transform;`;

/** @param {number} maxOutputChars */
function runnerSource(maxOutputChars) {
  return `(function (user) {
  var parse = JSON.parse, stringify = JSON.stringify, P = Promise, max = ${maxOutputChars};
  var raw = globalThis.__hookflow_input;
  delete globalThis.__hookflow_input;
  delete globalThis.__hookflow_fn;
  var input = parse(raw);
  function describe(error) {
    try {
      if (error instanceof Error) return String(error.name) + ": " + String(error.message);
      if (typeof error === "string") return error;
      return "uncaught " + stringify(error);
    } catch (_) {
      return "an exception that cannot be described";
    }
  }
  function fail(error) { return "E" + describe(error); }
  function finish(value) {
    var json;
    try { json = stringify(value); } catch (error) {
      return "Ethe transform result is not JSON-serialisable (" + describe(error) + ")";
    }
    if (json === undefined) return "Ethe transform returned no JSON value (undefined, a function or a symbol)";
    if (json.length > max) return "Etransform output exceeds the " + max + "-byte limit";
    return "O" + json;
  }
  if (typeof user !== "function") return "Ethe module's default export is not a function";
  var result, then;
  try {
    result = user(input.payload, input.context);
    then = result !== null && (typeof result === "object" || typeof result === "function") ? result.then : undefined;
  } catch (error) { return fail(error); }
  if (typeof then !== "function") return finish(result);
  function store(outcome) { globalThis.__hookflow_result = outcome; }
  P.resolve(result).then(finish, fail).then(store, function () { store("Ethe transform's promise failed"); });
  return "P";
})`;
}

export const COLLECT_SOURCE = `(function () {
  var outcome = globalThis.__hookflow_result;
  delete globalThis.__hookflow_result;
  return typeof outcome === "string" ? outcome : "Ethe transform returned a promise that never settles";
})()`;

/**
 * A script for code in function form: the body of `function transform(payload, context)`, or
 * code defining `function transform(payload, context)`.
 * @param {string} code
 * @param {number} maxOutputChars
 * @returns {{ source: string, lineOffset: number }} lineOffset maps the user's first line to 1
 */
export function functionFormScript(code, maxOutputChars) {
  const head = `${PRELUDE_SOURCE}\n${runnerSource(maxOutputChars)}(function (payload, context) {\n`;
  const tail = `\n;if (typeof transform === "function") return transform(payload, context);\n});`;
  return { source: head + code + tail, lineOffset: -(head.split("\n").length - 1) };
}

/** @param {number} maxOutputChars */
export function moduleRunnerScript(maxOutputChars) {
  return `${runnerSource(maxOutputChars)}(globalThis.__hookflow_fn);`;
}

// @ts-check
// Source text evaluated inside the isolates. A context is hardened once (HARDEN_SOURCE) and then
// serves many calls of one node: the node's program is installed in it once (a runner holding the
// user's code as a function), and each call is one call of that runner, which calls the user's
// function with copies of the payload and context and hands back one string: "O" + JSON output,
// "E" + error message, or "P" for a promise (see runnerSource).

/** Module specifier under which the wrapper module imports the user's module. */
export const USER_MODULE_SPECIFIER = "hookflow:transform";

/**
 * Run once in each new context, before any user code. Removes what user code has no use for or
 * could keep state with (WeakRef and FinalizationRegistry callbacks could run during a later
 * call, RegExp's legacy statics remember the last match), makes console do nothing, and freezes
 * every built-in object reachable from the global object, the anonymous ones included, so no call
 * can change what a later call of the same context sees. Freezing prototypes alone would break
 * ordinary code such as `this.name = "ValidationError"` in an Error subclass, or
 * `obj.toString = ...` (an inherited read-only property forbids assigning an own one, the
 * "override mistake"), so those properties become getter/setter pairs whose setter defines an
 * own property on the object assigned to, as SES does. The global object stays extensible, with
 * its own properties read-only and permanent. Evaluates to the reset function the sandbox calls
 * after each call: it deletes every global the call added and answers whether the context is
 * back to its baseline (otherwise the sandbox discards it).
 */
export const HARDEN_SOURCE = `(function () {
  "use strict";
  var g = globalThis, O = Object, R = Reflect;
  var defineProperty = O.defineProperty, getDescriptor = O.getOwnPropertyDescriptor;
  var getPrototypeOf = O.getPrototypeOf, freeze = O.freeze, ownKeys = R.ownKeys;
  var isExtensible = O.isExtensible, hasOwn = O.prototype.hasOwnProperty;
  var removed = ["SharedArrayBuffer", "Atomics", "WebAssembly", "WeakRef", "FinalizationRegistry"];
  for (var i = 0; i < removed.length; i++) delete g[removed[i]];
  var statics = ["$1", "$2", "$3", "$4", "$5", "$6", "$7", "$8", "$9", "input", "$_", "lastMatch",
    "$&", "lastParen", "$+", "leftContext", "$\`", "rightContext", "$'"];
  for (i = 0; i < statics.length; i++) delete RegExp[statics[i]];
  function noop() {}
  g.console = { log: noop, info: noop, warn: noop, error: noop, debug: noop, trace: noop };

  function tame(object, key) {
    var desc = getDescriptor(object, key);
    if (!desc || !("value" in desc) || !desc.writable || !desc.configurable) return;
    var value = desc.value;
    defineProperty(object, key, {
      get: function () { return value; },
      set: function (next) {
        if (this === object) throw new TypeError("Cannot assign to read only property '" + String(key) + "' of a built-in object");
        if (hasOwn.call(this, key)) this[key] = next;
        else defineProperty(this, key, { value: next, writable: true, enumerable: true, configurable: true });
      },
      enumerable: desc.enumerable,
      configurable: false,
    });
  }
  var objectMethods = ["constructor", "toString", "toLocaleString", "valueOf", "hasOwnProperty",
    "isPrototypeOf", "propertyIsEnumerable"];
  for (i = 0; i < objectMethods.length; i++) tame(O.prototype, objectMethods[i]);
  var errors = [Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError,
    AggregateError];
  for (i = 0; i < errors.length; i++) {
    var names = ["constructor", "name", "message", "toString"];
    for (var n = 0; n < names.length; n++) tame(errors[i].prototype, names[n]);
  }
  tame(Function.prototype, "toString");

  // Freezes everything reachable from the roots: values, getters and setters, prototypes.
  var frozen = new Set();
  function lockDown(roots) {
    var stack = roots;
    while (stack.length > 0) {
      var item = stack.pop();
      if ((typeof item !== "object" && typeof item !== "function") || item === null || item === g) continue;
      if (frozen.has(item)) continue;
      frozen.add(item);
      freeze(item);
      stack.push(getPrototypeOf(item));
      var own = ownKeys(item);
      for (var j = 0; j < own.length; j++) {
        var d = getDescriptor(item, own[j]);
        stack.push(d.value, d.get, d.set);
      }
    }
  }
  // Intl builds its many constructors lazily, on first use, which would make every new context
  // several times dearer; it is frozen the first time a call reaches for it instead. Nothing else
  // leads to its objects.
  var intl = g.Intl, intlFrozen = false;
  delete g.Intl;
  defineProperty(g, "Intl", {
    get: function () {
      if (!intlFrozen) {
        lockDown([intl]);
        intlFrozen = true;
      }
      return intl;
    },
    configurable: true,
    enumerable: false,
  });
  var roots = [getPrototypeOf(g)];
  var keys = ownKeys(g);
  for (i = 0; i < keys.length; i++) {
    var desc = getDescriptor(g, keys[i]);
    // Intl itself waits for its getter, but the getter is frozen like everything else.
    if (keys[i] === "Intl") roots.push(desc.get);
    else roots.push(desc.value, desc.get, desc.set);
  }
  var strictArguments = (function () { return arguments; })();
  roots.push(
    getPrototypeOf(function* () {}), getPrototypeOf(async function () {}),
    getPrototypeOf(async function* () {}), getPrototypeOf(Int8Array),
    getPrototypeOf([][Symbol.iterator]()), getPrototypeOf(""[Symbol.iterator]()),
    getPrototypeOf(new Map()[Symbol.iterator]()), getPrototypeOf(new Set()[Symbol.iterator]()),
    getPrototypeOf(/a/[Symbol.matchAll]("")), getPrototypeOf((function* () {})()),
    getPrototypeOf((async function* () {})()), getDescriptor(strictArguments, "callee").get
  );
  lockDown(roots);

  keys = ownKeys(g);
  for (i = 0; i < keys.length; i++) {
    desc = getDescriptor(g, keys[i]);
    if ("value" in desc) defineProperty(g, keys[i], { writable: false, configurable: false });
    else defineProperty(g, keys[i], { configurable: false });
  }
  var baseline = new Set(keys), baselineProto = getPrototypeOf(g), baselineSize = keys.length;
  // One listing of the global's keys per call (listing a hardened global costs about 5 µs): a
  // delete in strict code either removes its key or throws, and no user code runs meanwhile, so
  // the keys left are the listed ones minus the deleted ones.
  return function reset() {
    try {
      var current = ownKeys(g), added = 0;
      for (var k = 0; k < current.length; k++) {
        if (!baseline.has(current[k])) {
          delete g[current[k]];
          added++;
        }
      }
      return getPrototypeOf(g) === baselineProto && isExtensible(g) && current.length - added === baselineSize;
    } catch (_) {
      return false;
    }
  };
})()`;

/** Imports the user's module and exposes its default export to the runner. */
export const WRAPPER_MODULE_SOURCE = `import transform from "${USER_MODULE_SPECIFIER}";
globalThis.__hookflow_fn = transform;`;

/**
 * The runner of one program in one context: `(user, isFactory) => run`. `user` is the transform
 * function, or (`isFactory`) a function that runs a module's top level and returns its default
 * export. `run(inputJson)` calls it with copies of the payload and context and answers one
 * string: "O" + JSON output, "E" + error message, or "P" when the transform returned a promise;
 * microtasks run before the call that returned "P" ends (within its time limit), so `run(null)`
 * then answers the settled outcome, or that it never settled. The runner keeps no state of a call
 * past the next one, and user code cannot reach it. `ours`: `user` is our wrapper around the
 * user's code (reachable from sloppy code as `arguments.callee`), so it and its prototype are
 * frozen: nothing can be left on them for a later call.
 * @param {number} maxOutputChars
 */
function runnerSource(maxOutputChars) {
  return `(function (user, isFactory, ours) {
  "use strict";
  var parse = JSON.parse, stringify = JSON.stringify, P = Promise, max = ${maxOutputChars};
  var pending;
  if (ours) {
    Object.freeze(user);
    if (user.prototype) Object.freeze(user.prototype);
  }
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
  function settle(outcome) { pending = outcome; }
  return function run(raw) {
    if (raw === null) {
      var outcome = pending;
      pending = undefined;
      return typeof outcome === "string" ? outcome : "Ethe transform returned a promise that never settles";
    }
    pending = undefined;
    var input = parse(raw), fn = user, result, then;
    try {
      if (isFactory) fn = user();
      if (typeof fn !== "function") return "Ethe module's default export is not a function";
      result = fn(input.payload, input.context);
      then = result !== null && (typeof result === "object" || typeof result === "function") ? result.then : undefined;
    } catch (error) { return fail(error); }
    if (typeof then !== "function") return finish(result);
    P.resolve(result).then(finish, fail).then(settle, function () { settle("Ethe transform's promise failed"); });
    return "P";
  };
})`;
}

/**
 * A script for code in function form: the body of `function transform(payload, context)`, or
 * code defining `function transform(payload, context)`. Run once in a context, it evaluates to
 * that context's runner; each call then runs the code anew (its declarations are per call).
 * @param {string} code
 * @param {number} maxOutputChars
 * @returns {{ source: string, lineOffset: number }} lineOffset maps the user's first line to 1
 */
export function functionFormScript(code, maxOutputChars) {
  const head = `${runnerSource(maxOutputChars)}(function (payload, context) {\n`;
  const tail = `\n;if (typeof transform === "function") return transform(payload, context);\n}, false, true);`;
  return { source: head + code + tail, lineOffset: -(head.split("\n").length - 1) };
}

/**
 * A script for a module rewritten as a function body (module-rewrite.mjs): run once in a context,
 * it evaluates to that context's runner; each call runs the module's top level anew, as a fresh
 * module evaluation would, and calls its default export.
 * @param {string} body
 * @param {number} maxOutputChars
 * @returns {{ source: string, lineOffset: number }}
 */
export function moduleFunctionScript(body, maxOutputChars) {
  const head = `${runnerSource(maxOutputChars)}(function () {"use strict";\n`;
  const tail = `\n}, true, true);`;
  return { source: head + body + tail, lineOffset: -(head.split("\n").length - 1) };
}

/**
 * For a module that stays a module: evaluated after the wrapper module (which leaves the default
 * export in a global), it takes that export and evaluates to a runner for it.
 * @param {number} maxOutputChars
 */
export function moduleRunnerScript(maxOutputChars) {
  return `(function () {
  var user = globalThis.__hookflow_fn;
  delete globalThis.__hookflow_fn;
  return ${runnerSource(maxOutputChars)}(user, false, false);
})()`;
}

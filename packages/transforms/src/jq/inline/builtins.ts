// jq's builtins that the inline evaluator knows, by `name/arity`, each as jq 1.8 defines it
// (most in jq's own builtin.jq). Arguments written `$x` in jq are evaluated as a cartesian
// product, first argument outermost; builtins whose argument order jq does not document are
// `singleArgs` (only accepted with single-output arguments). Anything not here is unsupported.
import type { Ast } from "./ast.js";
import {
  add,
  charge,
  chargeBuilt,
  collect,
  deletePaths,
  type Emit,
  type Env,
  eachEntry,
  type Filter,
  finite,
  getPath,
  indexValue,
  lengthOf,
  NONE,
  type PathFilter,
  type PathKey,
  runFacts,
  Stop,
  setPath,
  sliceValue,
  splitString,
  takeFirst,
  type Value,
} from "./runtime.js";
import {
  checkKey,
  compare,
  describe,
  equal,
  fail,
  GiveWay,
  isObject,
  JqFailure,
  type Json,
  type JsonObject,
  kindOf,
  sortedKeys,
  toJsonText,
  toText,
  truthy,
} from "./values.js";

export interface CompiledArg {
  ast: Ast;
  filter: Filter;
  /** The argument as a path expression (Unsupported when it is not one). */
  path: () => PathFilter;
  /** At most one output, so the order arguments are evaluated in cannot show. */
  single: boolean;
  /** The argument's direct evaluator, when it has one (see compile.ts). */
  value: Value | undefined;
}

export interface Builtin {
  filter: (args: CompiledArg[]) => Filter;
  /** A direct evaluator for these arguments, when the builtin has at most one output with them. */
  value?: (args: CompiledArg[]) => Value | undefined;
  path?: (args: CompiledArg[]) => PathFilter;
  /** Turns numbers into text (jq writes numbers it kept from literals in their own way). */
  stringifies?: boolean;
  /** Only single-output arguments: jq's order for generators here is not mirrored. */
  singleArgs?: boolean;
}

type Fn0 = (input: Json) => Json;

/** A function of the input only. */
function unary(fn: Fn0, stringifies = false): Builtin {
  return { filter: () => (input, _env, emit) => emit(fn(input)), value: () => fn, stringifies };
}

/** `def f($a; ...)`: each combination of argument values, first argument outermost. */
function withValues(
  args: readonly CompiledArg[],
  input: Json,
  env: Env,
  body: (values: Json[]) => void,
  at = 0,
  values: Json[] = [],
): void {
  const arg = args[at];
  if (!arg) {
    body(values);
    return;
  }
  arg.filter(input, env, (value) => withValues(args, input, env, body, at + 1, [...values, value]));
}

function valued(
  fn: (input: Json, values: Json[]) => Json,
  options: Partial<Builtin> = {},
): Builtin {
  return {
    ...options,
    filter: (args) => (input, env, emit) =>
      withValues(args, input, env, (values) => emit(fn(input, values))),
    value: (args) => {
      if (!args.every((arg) => arg.value)) return undefined;
      const direct = args.map((arg) => arg.value as Value);
      return (input, env) => {
        const values: Json[] = [];
        for (const arg of direct) {
          const value = arg(input, env);
          if (value === NONE) return NONE;
          values.push(value);
        }
        return fn(input, values);
      };
    },
  };
}

function selectBy(test: (value: Json) => boolean): Builtin {
  return {
    filter: () => (input, _env, emit) => {
      if (test(input)) emit(input);
    },
    value: () => (input) => (test(input) ? input : NONE),
    path: () => (input, path, _env, emit) => {
      if (test(input)) emit(input, path);
    },
  };
}

function requireString(value: Json, message: string): string {
  if (typeof value !== "string") fail(message);
  return value;
}

function number(value: Json): number {
  if (typeof value !== "number") fail(`${describe(value)} number required`);
  return finite(value);
}

function keysOf(input: Json, sorted: boolean): Json[] {
  if (isObject(input)) return sorted ? sortedKeys(input) : Object.keys(input);
  if (Array.isArray(input)) return input.map((_item, index) => index);
  fail(`${describe(input)} has no keys`);
}

function startsWith(input: Json, prefix: Json): boolean {
  if (typeof input !== "string" || typeof prefix !== "string")
    fail("startswith() requires string inputs");
  return input.startsWith(prefix);
}

function endsWith(input: Json, suffix: Json): boolean {
  if (typeof input !== "string" || typeof suffix !== "string")
    fail("endswith() requires string inputs");
  return input.endsWith(suffix);
}

function has(input: Json, key: Json): boolean {
  if (input === null) return false;
  if (isObject(input) && typeof key === "string") return Object.hasOwn(input, key);
  if (Array.isArray(input) && typeof key === "number") {
    if (!Number.isInteger(key)) throw new GiveWay("fractional has");
    return key >= 0 && key < input.length;
  }
  fail(`Cannot check whether ${kindOf(input)} has a ${kindOf(key)} key`);
}

/** jq's containment: substrings, every element or key of `b` contained in `a`. */
function contains(a: Json, b: Json): boolean {
  const kind = kindOf(a);
  if (kind !== kindOf(b) || (kind === "boolean" && a !== b)) {
    fail(`${describe(a)} and ${describe(b)} cannot have their containment checked`);
  }
  if (isObject(a) && isObject(b)) {
    return Object.keys(b).every(
      (key) => Object.hasOwn(a, key) && contains(a[key] as Json, b[key] as Json),
    );
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    charge(a.length * b.length);
    return b.every((item) =>
      a.some((other) => kindOf(other) === kindOf(item) && contains(other, item)),
    );
  }
  if (typeof a === "string" && typeof b === "string") {
    if (a.includes("\u0000") || b.includes("\u0000")) throw new GiveWay("NUL in contains");
    return a.includes(b);
  }
  return equal(a, b);
}

/** Sorts by `[f]` keys, stably (jq's sort_by and group_by). */
function keyed(input: Json, fn: Filter, env: Env): { value: Json; key: Json[] }[] {
  if (!Array.isArray(input)) fail(`${describe(input)} cannot be sorted, as it is not an array`);
  charge(input.length);
  return input.map((value) => ({ value, key: collect(fn, value, env) }));
}

function sortKeyed(items: { value: Json; key: Json[] }[]): { value: Json; key: Json[] }[] {
  charge(items.length * Math.max(1, Math.ceil(Math.log2(items.length + 1))));
  return items.slice().sort((x, y) => compare(x.key, y.key));
}

function groups(items: { value: Json; key: Json[] }[]): Json[][] {
  const out: Json[][] = [];
  let last: Json[] | undefined;
  let group: Json[] = [];
  for (const item of sortKeyed(items)) {
    if (last !== undefined && compare(last, item.key) === 0) group.push(item.value);
    else {
      if (last !== undefined) out.push(group);
      group = [item.value];
      last = item.key;
    }
  }
  if (last !== undefined) out.push(group);
  return out;
}

/** jq's min_by/max_by: the first minimum, the last maximum. */
function extreme(items: { value: Json; key: Json[] }[], min: boolean): Json {
  let best: { value: Json; key: Json[] } | undefined;
  for (const item of items) {
    if (!best) {
      best = item;
      continue;
    }
    const order = compare(item.key, best.key);
    if (min ? order < 0 : order >= 0) best = item;
  }
  return best ? best.value : null;
}

function flatten(input: Json, depth: number): Json[] {
  const out: Json[] = [];
  eachEntry(input, (item) => {
    if (Array.isArray(item) && depth !== 0) out.push(...flatten(item, depth - 1));
    else out.push(item);
  });
  chargeBuilt(out.length);
  return out;
}

function roundHalfAway(value: number): number {
  const whole = Math.trunc(value);
  return Math.abs(value - whole) >= 0.5 ? whole + Math.sign(value) : whole;
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
export const PLAIN_NUMBER_TEXT = /^-?(?:0|[1-9]\d{0,14})$/;

function toNumber(input: Json): Json {
  if (typeof input === "number") return input;
  if (typeof input !== "string") fail(`${describe(input)} cannot be parsed as a number`);
  if (!JSON_NUMBER.test(input)) throw new GiveWay("number syntax");
  // jq keeps the text of a parsed number and writes it back as it was.
  if (runFacts.stringifiesNumbers && !PLAIN_NUMBER_TEXT.test(input))
    throw new GiveWay("exact number text");
  if (
    input
      .replace(/^-/, "")
      .replace(/\./, "")
      .replace(/[eE].*$/, "").length > 15
  ) {
    throw new GiveWay("long number");
  }
  return finite(Number(input));
}

/** Whether text may be read by JSON.parse with the meaning jq gives it (see inline-jq.ts). */
export type TextCheck = (json: string) => string | undefined;
let checkInputText: TextCheck = () => undefined;
export function setTextCheck(check: TextCheck): void {
  checkInputText = check;
}

function fromJson(input: Json): Json {
  if (typeof input !== "string") fail(`${describe(input)} cannot be parsed as JSON`);
  const problem = checkInputText(input);
  if (problem) throw new GiveWay(problem);
  try {
    return JSON.parse(input) as Json;
  } catch {
    throw new GiveWay("fromjson of text JSON.parse rejects");
  }
}

function explode(input: Json): Json {
  const text = requireString(input, `${describe(input)} cannot be exploded`);
  const points = Array.from(text, (char) => char.codePointAt(0) as number);
  charge(points.length);
  return points;
}

function implode(input: Json): Json {
  if (!Array.isArray(input)) fail("Cannot implode non-array");
  chargeBuilt(input.length);
  return input
    .map((point) => {
      if (typeof point !== "number" || !Number.isInteger(point) || point < 0 || point > 0x10ffff) {
        throw new GiveWay("implode of an invalid code point");
      }
      if (point >= 0xd800 && point <= 0xdfff) throw new GiveWay("implode of a surrogate");
      return String.fromCodePoint(point);
    })
    .join("");
}

function asciiCase(input: Json, upper: boolean): Json {
  const text = requireString(
    input,
    `${upper ? "ascii_upcase" : "ascii_downcase"} input must be a string`,
  );
  return upper
    ? text.replace(/[a-z]/g, (char) => char.toUpperCase())
    : text.replace(/[A-Z]/g, (char) => char.toLowerCase());
}

function toEntries(input: Json): Json {
  const keys = keysOf(input, false);
  charge(keys.length);
  return keys.map((key) => ({ key, value: indexValue(input, key) }));
}

/** `map({(.key // .Key // .name // .Name): (if has("value") then .value else .Value end)}) | add | .//={}` */
function fromEntries(input: Json): Json {
  let result: Json = null;
  eachEntry(input, (entry) => {
    const keyValue = [indexValue(entry, "key"), indexValue(entry, "Key"), indexValue(entry, "name")]
      .concat([indexValue(entry, "Name")])
      .find((candidate, index, all) => truthy(candidate) || index === all.length - 1) as Json;
    if (typeof keyValue !== "string") {
      fail(`Cannot use ${describe(keyValue)} as object key`);
    }
    const value = has(entry, "value") ? indexValue(entry, "value") : indexValue(entry, "Value");
    const object: JsonObject = {};
    object[checkKey(keyValue)] = value;
    result = add(result, object);
  });
  return truthy(result) ? result : {};
}

function join(input: Json, separator: Json): Json {
  let result: Json = null;
  eachEntry(input, (item) => {
    const piece =
      typeof item === "boolean" || typeof item === "number"
        ? toText(item)
        : truthy(item)
          ? item
          : "";
    result = add(result === null ? "" : add(result, separator), piece);
  });
  return truthy(result) ? result : "";
}

/** Every path in the value, the root's (empty) one first. */
function pathsOf(input: Json, emit: (path: Json[], value: Json) => void): void {
  const walk = (value: Json, path: PathKey[]) => {
    charge(1);
    emit(path, value);
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++)
        walk(value[index] as Json, [...path, index]);
    } else if (isObject(value)) {
      for (const key of Object.keys(value)) walk(value[key] as Json, [...path, key]);
    }
  };
  walk(input, []);
}

function pathArray(value: Json): Json[] {
  if (!Array.isArray(value)) fail("Path must be specified as an array");
  return value;
}

/** `recurse(f)`: the value, then recursively each output of f. */
function recurseWith(fn: Filter, input: Json, env: Env, emit: Emit): void {
  charge(1);
  emit(input);
  fn(input, env, (next) => recurseWith(fn, next, env, emit));
}

function firstOutput(fn: Filter, input: Json, env: Env): { found: boolean; value: Json } {
  let result: { found: boolean; value: Json } = { found: false, value: null };
  takeFirst(
    1,
    (emit) => fn(input, env, emit),
    (value) => {
      result = { found: true, value };
    },
  );
  return result;
}

function anyAll(
  generator: Filter,
  condition: Filter,
  input: Json,
  env: Env,
  any: boolean,
): boolean {
  const stop = new Stop();
  let decided = false;
  try {
    generator(input, env, (item) =>
      condition(item, env, (verdict) => {
        if (truthy(verdict) === any) {
          decided = true;
          throw stop;
        }
      }),
    );
  } catch (error) {
    if (error !== stop) throw error;
  }
  return any ? decided : !decided;
}

/** `any(cond)`/`all(cond)` (arity 1, over `.[]`) and `any(gen; cond)`/`all(gen; cond)`. */
function anyAllOf(arity: 1 | 2, isAny: boolean): Builtin {
  return {
    filter: (args) => {
      const generator = arity === 2 ? (args[0] as CompiledArg).filter : iterate;
      const condition = (args[arity - 1] as CompiledArg).filter;
      return (input, env, emit) => emit(anyAll(generator, condition, input, env, isAny));
    },
  };
}

const iterate: Filter = (input, _env, emit) => eachEntry(input, (item) => emit(item));

/** `[.[] | f]` */
function mapValuesOf(fn: CompiledArg, input: Json, env: Env): Json[] {
  const out: Json[] = [];
  const direct = fn.value;
  eachEntry(input, (item) => {
    if (direct) {
      const value = direct(item, env);
      if (value === NONE) return;
      charge(1);
      out.push(value);
      return;
    }
    fn.filter(item, env, (value) => {
      charge(1);
      out.push(value);
    });
  });
  return out;
}
const identity: Filter = (input, _env, emit) => emit(input);

function mapValues(fn: Filter, input: Json, env: Env): Json {
  // `.[] |= f`: each value gets f's first output; values with none are deleted.
  const deleted: Json[][] = [];
  let result: Json = input;
  eachEntry(input, (value, key) => {
    const first = firstOutput(fn, value, env);
    if (first.found) result = setPath(result, [key], first.value);
    else deleted.push([key]);
  });
  return deleted.length > 0 ? deletePaths(result, deleted) : result;
}

function walk(fn: Filter, input: Json, env: Env, emit: Emit): void {
  charge(1);
  let inner: Json = input;
  if (isObject(input)) {
    inner = mapValues(
      (value, innerEnv, innerEmit) => walk(fn, value, innerEnv, innerEmit),
      input,
      env,
    );
  } else if (Array.isArray(input)) {
    const items: Json[] = [];
    for (const item of input) walk(fn, item, env, (value) => items.push(value));
    inner = items;
  }
  fn(inner, env, emit);
}

export const BUILTINS: Record<string, Builtin> = {
  "empty/0": { filter: () => () => undefined, path: () => () => undefined },
  "error/0": {
    filter: () => (input) => {
      throw new JqFailure(input, true);
    },
    path: () => (input) => {
      throw new JqFailure(input, true);
    },
  },
  "error/1": {
    filter:
      ([message]) =>
      (input, env) =>
        (message as CompiledArg).filter(input, env, (value) => {
          throw new JqFailure(value, true);
        }),
  },
  "not/0": unary((input) => !truthy(input)),
  "length/0": unary(lengthOf),
  "utf8bytelength/0": unary((input) =>
    Buffer.byteLength(
      requireString(input, `${describe(input)} only strings have UTF-8 byte length`),
      "utf8",
    ),
  ),
  "type/0": unary(kindOf),
  "keys/0": unary((input) => keysOf(input, true)),
  "keys_unsorted/0": unary((input) => keysOf(input, false)),
  "has/1": valued((input, [key]) => has(input, key as Json)),
  "in/1": valued((input, [object]) => has(object as Json, input)),
  "contains/1": valued((input, [other]) => contains(input, other as Json)),
  "inside/1": valued((input, [other]) => contains(other as Json, input)),
  "add/0": unary((input) => {
    let result: Json = null;
    eachEntry(input, (item) => {
      result = add(result, item);
    });
    return result;
  }),
  "add/1": {
    filter:
      ([items]) =>
      (input, env, emit) => {
        let result: Json = null;
        (items as CompiledArg).filter(input, env, (item) => {
          charge(1);
          result = add(result, item);
        });
        emit(result);
      },
  },
  "any/0": unary((input) => anyAll(iterate, identity, input, null, true)),
  "all/0": unary((input) => anyAll(iterate, identity, input, null, false)),
  "any/1": anyAllOf(1, true),
  "all/1": anyAllOf(1, false),
  "any/2": anyAllOf(2, true),
  "all/2": anyAllOf(2, false),
  "isempty/1": {
    filter:
      ([generator]) =>
      (input, env, emit) =>
        emit(!firstOutput((generator as CompiledArg).filter, input, env).found),
  },
  "map/1": {
    filter:
      ([fn]) =>
      (input, env, emit) =>
        emit(mapValuesOf(fn as CompiledArg, input, env)),
    value:
      ([fn]) =>
      (input, env) =>
        mapValuesOf(fn as CompiledArg, input, env),
  },
  "map_values/1": {
    filter:
      ([fn]) =>
      (input, env, emit) =>
        emit(mapValues((fn as CompiledArg).filter, input, env)),
  },
  "select/1": {
    filter:
      ([condition]) =>
      (input, env, emit) =>
        (condition as CompiledArg).filter(input, env, (verdict) => {
          if (truthy(verdict)) emit(input);
        }),
    value: ([condition]) => {
      const test = (condition as CompiledArg).value;
      if (!test) return undefined;
      return (input, env) => {
        const verdict = test(input, env);
        return verdict !== NONE && truthy(verdict) ? input : NONE;
      };
    },
    path:
      ([condition]) =>
      (input, path, env, emit) =>
        (condition as CompiledArg).filter(input, env, (verdict) => {
          if (truthy(verdict)) emit(input, path);
        }),
  },
  "recurse/1": {
    filter:
      ([fn]) =>
      (input, env, emit) =>
        recurseWith((fn as CompiledArg).filter, input, env, emit),
  },
  "values/0": selectBy((value) => value !== null),
  "nulls/0": selectBy((value) => value === null),
  "booleans/0": selectBy((value) => typeof value === "boolean"),
  "numbers/0": selectBy((value) => typeof value === "number"),
  "strings/0": selectBy((value) => typeof value === "string"),
  "arrays/0": selectBy((value) => Array.isArray(value)),
  "objects/0": selectBy((value) => isObject(value)),
  "iterables/0": selectBy((value) => value !== null && typeof value === "object"),
  "scalars/0": selectBy((value) => value === null || typeof value !== "object"),
  "to_entries/0": unary(toEntries),
  "from_entries/0": unary(fromEntries),
  "with_entries/1": {
    filter:
      ([fn]) =>
      (input, env, emit) => {
        const entries = toEntries(input) as Json[];
        const mapped: Json[] = [];
        for (const entry of entries)
          (fn as CompiledArg).filter(entry, env, (value) => mapped.push(value));
        emit(fromEntries(mapped));
      },
  },
  "tostring/0": unary(toText, true),
  "tojson/0": unary(toJsonText, true),
  "fromjson/0": unary(fromJson),
  "tonumber/0": unary(toNumber),
  "ascii_downcase/0": unary((input) => asciiCase(input, false)),
  "ascii_upcase/0": unary((input) => asciiCase(input, true)),
  "explode/0": unary(explode),
  "implode/0": unary(implode),
  // jq 1.8: `if startswith($x) then .[$x | length:] end`, and the same with endswith.
  "ltrimstr/1": valued((input, [prefix]) =>
    startsWith(input, prefix as Json) ? sliceValue(input, lengthOf(prefix as Json), null) : input,
  ),
  "rtrimstr/1": valued((input, [suffix]) =>
    endsWith(input, suffix as Json) && suffix !== ""
      ? sliceValue(input, null, -(lengthOf(suffix as Json) as number))
      : input,
  ),
  "startswith/1": valued((input, [prefix]) => startsWith(input, prefix as Json)),
  "endswith/1": valued((input, [suffix]) => endsWith(input, suffix as Json)),
  "split/1": valued((input, [separator]) => {
    if (typeof input !== "string" || typeof separator !== "string") {
      fail("split input and separator must be strings");
    }
    return splitString(input, separator);
  }),
  "join/1": valued((input, [separator]) => join(input, separator as Json), { stringifies: true }),
  "sort/0": unary((input) => {
    if (!Array.isArray(input)) fail(`${describe(input)} cannot be sorted, as it is not an array`);
    return sortKeyed(input.map((value) => ({ value, key: [value] }))).map((item) => item.value);
  }),
  "sort_by/1": {
    filter:
      ([fn]) =>
      (input, env, emit) =>
        emit(sortKeyed(keyed(input, (fn as CompiledArg).filter, env)).map((item) => item.value)),
  },
  "group_by/1": {
    filter:
      ([fn]) =>
      (input, env, emit) =>
        emit(groups(keyed(input, (fn as CompiledArg).filter, env))),
  },
  "unique/0": unary((input) => {
    if (!Array.isArray(input)) fail(`${describe(input)} cannot be sorted, as it is not an array`);
    return groups(input.map((value) => ({ value, key: [value] }))).map((group) => group[0] as Json);
  }),
  "unique_by/1": {
    filter:
      ([fn]) =>
      (input, env, emit) =>
        emit(
          groups(keyed(input, (fn as CompiledArg).filter, env)).map((group) => group[0] as Json),
        ),
  },
  "min/0": unary((input) => {
    if (!Array.isArray(input)) fail(`${describe(input)} cannot be sorted, as it is not an array`);
    return extreme(
      input.map((value) => ({ value, key: [value] })),
      true,
    );
  }),
  "max/0": unary((input) => {
    if (!Array.isArray(input)) fail(`${describe(input)} cannot be sorted, as it is not an array`);
    return extreme(
      input.map((value) => ({ value, key: [value] })),
      false,
    );
  }),
  "min_by/1": {
    filter:
      ([fn]) =>
      (input, env, emit) =>
        emit(extreme(keyed(input, (fn as CompiledArg).filter, env), true)),
  },
  "max_by/1": {
    filter:
      ([fn]) =>
      (input, env, emit) =>
        emit(extreme(keyed(input, (fn as CompiledArg).filter, env), false)),
  },
  "flatten/0": unary((input) => flatten(input, -1)),
  "flatten/1": valued((input, [depth]) => {
    if (typeof depth !== "number") fail("flatten depth must be a number");
    if (depth < 0) fail("flatten depth must not be negative");
    if (!Number.isInteger(depth)) throw new GiveWay("fractional depth");
    return flatten(input, depth);
  }),
  "range/1": {
    filter:
      ([upto]) =>
      (input, env, emit) =>
        (upto as CompiledArg).filter(input, env, (end) => range(0, end, 1, emit)),
  },
  "range/2": {
    filter:
      ([from, upto]) =>
      (input, env, emit) =>
        withValues([from as CompiledArg, upto as CompiledArg], input, env, ([start, end]) =>
          range(start as Json, end as Json, 1, emit),
        ),
  },
  "range/3": {
    filter:
      ([from, upto, by]) =>
      (input, env, emit) =>
        withValues(
          [from as CompiledArg, upto as CompiledArg, by as CompiledArg],
          input,
          env,
          ([start, end, step]) => {
            if (typeof step !== "number") fail("Range step must be numeric");
            if (step === 0) throw new GiveWay("range step 0");
            range(start as Json, end as Json, step, emit);
          },
        ),
  },
  // `[.[length - 1 - range(0; length)]]`: anything of length 0 gives [].
  "reverse/0": unary((input) => {
    if (lengthOf(input) === 0) return [];
    if (!Array.isArray(input)) fail(`Cannot index ${kindOf(input)} with number`);
    charge(input.length);
    return input.slice().reverse();
  }),
  "last/1": {
    filter:
      ([generator]) =>
      (input, env, emit) => {
        let found = false;
        let last: Json = null;
        (generator as CompiledArg).filter(input, env, (value) => {
          found = true;
          last = value;
        });
        if (found) emit(last);
      },
  },
  "nth/2": {
    filter:
      ([index, generator]) =>
      (input, env, emit) =>
        (index as CompiledArg).filter(input, env, (n) => {
          if (typeof n !== "number") fail("nth requires a number");
          if (n < 0) fail("Out of bounds negative array index");
          if (!Number.isInteger(n)) throw new GiveWay("fractional nth");
          let seen = 0;
          const stop = new Stop();
          try {
            (generator as CompiledArg).filter(input, env, (value) => {
              if (seen++ === n) {
                emit(value);
                throw stop;
              }
            });
          } catch (error) {
            if (error !== stop) throw error;
          }
        }),
  },
  "IN/2": {
    filter:
      ([source, candidates]) =>
      (input, env, emit) =>
        emit(
          anyAll(
            (source as CompiledArg).filter,
            (value, innerEnv, inner) =>
              (candidates as CompiledArg).filter(input, innerEnv, (candidate) =>
                inner(equal(value, candidate)),
              ),
            input,
            env,
            true,
          ),
        ),
  },
  "floor/0": unary((input) => Math.floor(number(input))),
  "ceil/0": unary((input) => Math.ceil(number(input))),
  "round/0": unary((input) => roundHalfAway(number(input))),
  "sqrt/0": unary((input) => finite(Math.sqrt(number(input)))),
  "fabs/0": unary((input) => Math.abs(number(input))),
  "first/0": unary((input) => indexValue(input, 0)),
  "last/0": unary((input) => indexValue(input, -1)),
  "nth/1": valued((input, [index]) => indexValue(input, index as Json)),
  "first/1": {
    filter:
      ([generator]) =>
      (input, env, emit) =>
        takeFirst(1, (inner) => (generator as CompiledArg).filter(input, env, inner), emit),
    path: ([generator]) => {
      const paths = (generator as CompiledArg).path();
      return (input, path, env, emit) => {
        const stop = new Stop();
        try {
          paths(input, path, env, (value, at) => {
            emit(value, at);
            throw stop;
          });
        } catch (error) {
          if (error !== stop) throw error;
        }
      };
    },
  },
  "limit/2": {
    filter:
      ([count, generator]) =>
      (input, env, emit) =>
        (count as CompiledArg).filter(input, env, (n) => {
          if (typeof n !== "number") fail("Invalid limit: must be a number");
          if (n < 0) fail("limit doesn't support negative count");
          if (!Number.isInteger(n)) throw new GiveWay("fractional limit");
          takeFirst(n, (inner) => (generator as CompiledArg).filter(input, env, inner), emit);
        }),
  },
  "until/2": {
    filter: ([condition, next]) => {
      const step = (value: Json, env: Env, emit: Emit): void => {
        charge(1);
        (condition as CompiledArg).filter(value, env, (done) => {
          if (truthy(done)) emit(value);
          else (next as CompiledArg).filter(value, env, (following) => step(following, env, emit));
        });
      };
      return (input, env, emit) => step(input, env, emit);
    },
  },
  "while/2": {
    filter: ([condition, update]) => {
      const step = (value: Json, env: Env, emit: Emit): void => {
        charge(1);
        (condition as CompiledArg).filter(value, env, (going) => {
          if (!truthy(going)) return;
          emit(value);
          (update as CompiledArg).filter(value, env, (following) => step(following, env, emit));
        });
      };
      return (input, env, emit) => step(input, env, emit);
    },
  },
  "getpath/1": {
    filter:
      ([path]) =>
      (input, env, emit) =>
        (path as CompiledArg).filter(input, env, (keys) => emit(getPath(input, pathArray(keys)))),
    path:
      ([path]) =>
      (input, at, env, emit) =>
        (path as CompiledArg).filter(input, env, (keys) => {
          const list = pathArray(keys);
          for (const key of list) {
            if (typeof key !== "string" && typeof key !== "number") throw new GiveWay("path key");
          }
          emit(getPath(input, list), [...at, ...(list as PathKey[])]);
        }),
  },
  "setpath/2": {
    singleArgs: true,
    filter:
      ([path, value]) =>
      (input, env, emit) =>
        withValues([path as CompiledArg, value as CompiledArg], input, env, ([keys, assigned]) =>
          emit(setPath(input, pathArray(keys as Json), assigned as Json)),
        ),
  },
  "delpaths/1": valued((input, [paths]) => {
    if (!Array.isArray(paths)) fail("Paths must be specified as an array");
    return deletePaths(input, paths.map(pathArray));
  }),
  "del/1": {
    filter: ([target]) => {
      const paths = (target as CompiledArg).path();
      return (input, env, emit) => {
        const found: Json[][] = [];
        paths(input, [], env, (_value, path) => {
          charge(1);
          found.push([...path]);
        });
        emit(deletePaths(input, found));
      };
    },
  },
  "paths/0": {
    filter: () => (input, _env, emit) =>
      pathsOf(input, (path) => {
        if (path.length > 0) emit(path);
      }),
  },
  // `path(.. | select(f)) | select(length > 0)`: f runs on the root too.
  "paths/1": {
    filter:
      ([condition]) =>
      (input, env, emit) =>
        pathsOf(input, (path, value) =>
          (condition as CompiledArg).filter(value, env, (verdict) => {
            if (truthy(verdict) && path.length > 0) emit(path);
          }),
        ),
  },
  "walk/1": {
    filter:
      ([fn]) =>
      (input, env, emit) =>
        walk((fn as CompiledArg).filter, input, env, emit),
  },
  "transpose/0": unary((input) => {
    if (!Array.isArray(input)) fail(`${describe(input)} cannot be transposed`);
    let width = 0;
    for (const row of input) width = Math.max(width, lengthOf(row) as number);
    chargeBuilt(width * input.length);
    return Array.from({ length: width }, (_unused, column) =>
      input.map((row) => indexValue(row, column)),
    );
  }),
  "IN/1": {
    filter:
      ([source]) =>
      (input, env, emit) =>
        emit(
          anyAll(
            (source as CompiledArg).filter,
            (value, _env, inner) => inner(equal(value, input)),
            input,
            env,
            true,
          ),
        ),
  },
  "env/0": unary(() => ({})),
  "input_filename/0": unary(() => null),
  "debug/0": { filter: () => identity, path: () => (input, path, _env, emit) => emit(input, path) },
  "stderr/0": { filter: () => identity },
};

function range(start: Json, end: Json, step: number, emit: Emit): void {
  if (typeof start !== "number" || typeof end !== "number") fail("Range bounds must be numeric");
  for (let value = start; step > 0 ? value < end : value > end; value += step) {
    charge(1);
    emit(value);
  }
}

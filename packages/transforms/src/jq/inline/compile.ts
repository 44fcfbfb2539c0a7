// Compiles the subset's AST into closures (no generated code): a `Filter` per node answers the list
// of its outputs in jq's order (for `a + b` the outputs of `b` are the outer loop, for `.[k]` the
// keys, for objects the first entry). Lists are computed whole: work jq skips after the first
// output is done too (within the budget) and an error there makes the run give way (never wrong).
// `and`, `or` and `//` evaluate their right side only when jq does.
import type { Ast, Builtin } from "./ast.js";
import { Unsupported } from "./lexer.js";
import { BINARY, indexValue, keysOf, lengthOf, NONE, negate, valuesOf } from "./operators.js";
import { charge, checkKey, giveWay, type Json, type JsonObject, truthy } from "./values.js";

/** Variables by slot, outermost first. */
type Env = readonly Json[];
/** A compiled node: its outputs for one input. The lists are never changed once answered. */
export type Filter = (input: Json, env: Env) => readonly Json[];

export function compileProgram(ast: Ast): Filter {
  return compile(ast, []);
}

/** Every node's evaluation is a unit of the run's budget (work on big values costs more). */
function compile(ast: Ast, scope: readonly string[]): Filter {
  const filter = compileNode(ast, scope);
  return (input, env) => {
    charge(1);
    return filter(input, env);
  };
}

function compileNode(ast: Ast, scope: readonly string[]): Filter {
  const sub = (node: Ast) => compile(node, scope);
  switch (ast.k) {
    case "identity":
      return (input) => [input];
    case "literal":
      return () => [ast.value];
    case "var": {
      const slot = scope.lastIndexOf(ast.name);
      if (slot < 0) throw new Unsupported(`$${ast.name}`);
      return (_input, env) => [env[slot] as Json];
    }
    case "index":
      return compileIndex(sub(ast.target), sub(ast.index), ast.opt);
    case "iterate": {
      const [target, opt] = [sub(ast.target), ast.opt];
      return (input, env) => flatMap(target(input, env), (value) => valuesOf(value, opt));
    }
    case "array": {
      const body = ast.body ? sub(ast.body) : () => [];
      return (input, env) => [body(input, env).slice()];
    }
    case "object":
      return compileObject(
        ast.entries.map(({ key, value }) => [
          key.k === "literal" && typeof key.value === "string" ? checkKey(key.value) : sub(key),
          sub(value),
        ]),
      );
    case "negate": {
      const body = sub(ast.body);
      return (input, env) => body(input, env).map(negate);
    }
    case "pipe": {
      const [left, right] = [sub(ast.left), sub(ast.right)];
      return (input, env) => flatMap(left(input, env), (value) => right(value, env));
    }
    case "comma": {
      const [left, right] = [sub(ast.left), sub(ast.right)];
      return (input, env) => left(input, env).concat(right(input, env));
    }
    case "binary": {
      const [left, right, op] = [sub(ast.left), sub(ast.right), BINARY[ast.op]];
      return (input, env) => {
        const [as, bs] = [left(input, env), right(input, env)];
        if (as.length === 1 && bs.length === 1) return [op(as[0] as Json, bs[0] as Json)];
        charge(as.length * bs.length);
        return flatMap(bs, (b) => as.map((a) => op(a, b)));
      };
    }
    case "and":
    case "or": {
      const [left, right, stopsAt] = [sub(ast.left), sub(ast.right), ast.k === "or"];
      return (input, env) =>
        flatMap(left(input, env), (a) =>
          truthy(a) === stopsAt ? [stopsAt] : right(input, env).map(truthy),
        );
    }
    case "alternative": {
      const [left, right] = [sub(ast.left), sub(ast.right)];
      return (input, env) => {
        const found = left(input, env).filter(truthy);
        return found.length > 0 ? found : right(input, env);
      };
    }
    case "bind": {
      const source = sub(ast.source);
      const body = compile(ast.body, [...scope, ast.name]);
      return (input, env) => flatMap(source(input, env), (value) => body(input, [...env, value]));
    }
    case "call":
      return compileCall(ast.name, ast.arg ? sub(ast.arg) : () => []);
  }
}

/** `target[index]`; jq evaluates the key against the term's own input, as the outer loop. */
function compileIndex(target: Filter, index: Filter, opt: boolean): Filter {
  return (input, env) => {
    const targets = target(input, env);
    return flatMap(index(input, env), (key) =>
      flatMap(targets, (value) => {
        const found = indexValue(value, key, opt);
        return found === NONE ? [] : [found];
      }),
    );
  };
}

/** Objects of every combination of the entries' outputs, the first entry the outer loop. */
function compileObject(entries: readonly [key: Filter | string, value: Filter][]): Filter {
  return (input, env) => {
    let objects: JsonObject[] = [{}];
    for (const [key, value] of entries) {
      const values = value(input, env);
      if (typeof key === "string" && values.length === 1) {
        for (const object of objects) object[key] = values[0] as Json;
        continue;
      }
      const names = typeof key === "string" ? [key] : key(input, env);
      charge(objects.length * names.length * values.length * entries.length);
      const pairs: [string, Json][] = [];
      for (const name of names) {
        if (typeof name !== "string") giveWay("object key is not a string");
        for (const item of values) pairs.push([checkKey(name), item]);
      }
      objects = flatMap(objects, (object) => pairs.map(([k, v]) => ({ ...object, [k]: v })));
    }
    return objects;
  };
}

function compileCall(name: Builtin, arg: Filter): Filter {
  switch (name) {
    case "empty":
      return () => [];
    case "not":
      return (input) => [!truthy(input)];
    case "length":
      return (input) => [lengthOf(input)];
    case "keys":
      return (input) => [keysOf(input)];
    case "select":
      return (input, env) => flatMap(arg(input, env), (value) => (truthy(value) ? [input] : []));
    case "map":
      // jq's `def map(f): [.[] | f];`
      return (input, env) => [flatMap(valuesOf(input, false), (item) => arg(item, env))];
  }
}

function flatMap<T, U>(items: readonly T[], each: (item: T) => readonly U[]): U[] {
  if (items.length === 1) return each(items[0] as T) as U[];
  const out: U[] = [];
  for (const item of items) for (const result of each(item)) out.push(result);
  return out;
}

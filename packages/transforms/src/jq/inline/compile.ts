// Compiles a jq AST into closures (no generated code): one `Filter` per node, and a `PathFilter`
// for the nodes that are path expressions (the left side of `=`, `|=`, `+=`..., `del`, `paths`).
// A subtree with at most one output is compiled to a direct evaluator (`Value`) as well, which
// returns its value instead of calling back, so a typical reshaping program runs with a few
// callbacks (for its generators) rather than several per node.
// Evaluation order follows jq: for `a + b` the outputs of `b` are the outer loop, for objects the
// first entry is the outer loop, keys before values. Anything outside the supported subset is
// `Unsupported` at compile time; a run that meets what it cannot answer exactly gives way to jq.
import type { AssignOp, Ast, BinaryOp, Pattern } from "./ast.js";
import { BUILTINS, type Builtin, type CompiledArg } from "./builtins.js";
import { applyFormat, FORMATS } from "./formats.js";
import { Unsupported } from "./lexer.js";
import {
  add,
  bindValue,
  catchOwnErrors,
  charge,
  chargeBuilt,
  deletePaths,
  divide,
  type Emit,
  type Env,
  eachEntry,
  type Filter,
  getPath,
  indexValue,
  lookup,
  modulo,
  multiply,
  NONE,
  negate,
  type PathEmit,
  type PathFilter,
  type PathKey,
  setPath,
  sliceValue,
  subtract,
  type Value,
} from "./runtime.js";
import {
  checkKey,
  compare,
  equal,
  fail,
  GiveWay,
  isIndexLikeKey,
  JqFailure,
  type Json,
  type JsonObject,
  truthy,
} from "./values.js";

/** A key JavaScript objects keep in insertion order, as jq does (see checkKey). */
function isPlainKey(key: string): boolean {
  return key !== "__proto__" && !isIndexLikeKey(key);
}

/** What the run-time checks need to know about a compiled program. */
export interface ProgramFacts {
  /** The program turns numbers into text (tostring, tojson, formats, interpolation, join...). */
  stringifiesNumbers: boolean;
  /** A number literal of the program is not a short integer (jq keeps its exact text). */
  exactNumberLiterals: boolean;
}

export interface CompiledProgram {
  filter: Filter;
  facts: ProgramFacts;
  /** At most one output: the run needs no early stop after the first. */
  single: boolean;
}

/** Integers jq and JavaScript write alike whether or not jq kept the literal's text. */
export const PLAIN_NUMBER = /^-?(?:0|[1-9]\d{0,14})$/;

export function compileProgram(ast: Ast): CompiledProgram {
  const compiler = new Compiler();
  const filter = compiler.filter(ast, []);
  return { filter, facts: compiler.facts, single: compiler.value(ast, []) !== undefined };
}

type Scope = readonly string[];

const BINARY: Record<BinaryOp, (a: Json, b: Json) => Json> = {
  "+": add,
  "-": subtract,
  "*": multiply,
  "/": divide,
  "%": modulo,
  "==": (a, b) => equal(a, b),
  "!=": (a, b) => !equal(a, b),
  "<": (a, b) => compare(a, b) < 0,
  "<=": (a, b) => compare(a, b) <= 0,
  ">": (a, b) => compare(a, b) > 0,
  ">=": (a, b) => compare(a, b) >= 0,
};

const UPDATE_OPS: Partial<Record<AssignOp, (a: Json, b: Json) => Json>> = {
  "+=": add,
  "-=": subtract,
  "*=": multiply,
  "/=": divide,
  "%=": modulo,
};

class Compiler {
  readonly facts: ProgramFacts = { stringifiesNumbers: false, exactNumberLiterals: false };

  private resolve(scope: Scope, name: string): number {
    const index = scope.lastIndexOf(name);
    if (index < 0) throw new Unsupported(`$${name}`);
    return scope.length - 1 - index;
  }

  /** Compiled forms of each node (a node always compiles in the same scope). */
  private readonly filters = new Map<Ast, Filter>();
  private readonly values = new Map<Ast, Value | null>();

  arg(ast: Ast, scope: Scope): CompiledArg {
    return {
      ast,
      filter: this.filter(ast, scope),
      path: () => this.path(ast, scope),
      single: singleOutput(ast),
      value: this.value(ast, scope),
    };
  }

  filter(ast: Ast, scope: Scope): Filter {
    const known = this.filters.get(ast);
    if (known) return known;
    const direct = this.value(ast, scope);
    const filter: Filter = direct
      ? (input, env, emit) => {
          const value = direct(input, env);
          if (value !== NONE) emit(value);
        }
      : this.generator(ast, scope);
    this.filters.set(ast, filter);
    return filter;
  }

  /** The node's direct evaluator, when it has at most one output and all it needs has one too. */
  value(ast: Ast, scope: Scope): Value | undefined {
    const known = this.values.get(ast);
    if (known !== undefined) return known ?? undefined;
    const direct = this.direct(ast, scope);
    this.values.set(ast, direct ?? null);
    return direct;
  }

  private direct(ast: Ast, scope: Scope): Value | undefined {
    switch (ast.k) {
      case "identity":
        return (input) => input;
      case "literal": {
        this.noteLiteral(ast);
        const value = ast.value;
        return () => value;
      }
      case "var": {
        if (ast.name === "ENV" && !scope.includes("ENV")) return () => ({});
        const depth = this.resolve(scope, ast.name);
        return (_input, env) => lookup(env, depth);
      }
      case "format": {
        const format = this.format(ast.name);
        return (input) => applyFormat(format, input);
      }
      case "string": {
        const format = this.format(ast.format);
        const parts = ast.pieces.map((piece) =>
          typeof piece === "string" ? piece : this.value(piece, scope),
        );
        if (parts.some((part) => part === undefined)) return undefined;
        const pieces = parts as (string | Value)[];
        return (input, env) => {
          // jq evaluates the last interpolation first (it is the outermost loop).
          const texts: string[] = new Array(pieces.length);
          let length = 0;
          for (let index = pieces.length - 1; index >= 0; index--) {
            const piece = pieces[index] as string | Value;
            if (typeof piece === "string") texts[index] = piece;
            else {
              const value = piece(input, env);
              if (value === NONE) return NONE;
              texts[index] = applyFormat(format, value);
            }
            length += (texts[index] as string).length;
          }
          chargeBuilt(length);
          return texts.join("");
        };
      }
      case "index": {
        const target = this.value(ast.target, scope);
        const index = this.value(ast.index, scope);
        if (!target || !index) return undefined;
        const get = ast.opt ? optional(indexValue) : indexValue;
        return (input, env) => {
          const key = index(input, env);
          if (key === NONE) return NONE;
          const value = target(input, env);
          if (value === NONE) return NONE;
          const result = get(value, key);
          return result === SKIP ? NONE : result;
        };
      }
      case "array": {
        const body = ast.body ? this.filter(ast.body, scope) : undefined;
        if (!body) return () => [];
        return (input, env) => {
          const items: Json[] = [];
          body(input, env, (value) => {
            charge(1);
            items.push(value);
          });
          return items;
        };
      }
      case "object": {
        const entries = ast.entries.map((entry) => {
          const constant =
            entry.key.k === "literal" && typeof entry.key.value === "string"
              ? entry.key.value
              : undefined;
          return {
            // A constant key JavaScript would keep differently is checked (and gives way) on use.
            constantKey: constant !== undefined && isPlainKey(constant) ? constant : undefined,
            key: this.value(entry.key, scope),
            value: this.value(entry.value, scope),
          };
        });
        if (entries.some((entry) => !entry.key || !entry.value)) return undefined;
        const direct = entries as { constantKey: string | undefined; key: Value; value: Value }[];
        return (input, env) => {
          const object: JsonObject = {};
          for (const entry of direct) {
            let key = entry.constantKey;
            if (key === undefined) {
              const computed = entry.key(input, env);
              if (computed === NONE) return NONE;
              if (typeof computed !== "string") fail("Object keys must be strings");
              key = checkKey(computed);
            }
            const value = entry.value(input, env);
            if (value === NONE) return NONE;
            charge(1);
            object[key] = value;
          }
          return object;
        };
      }
      case "negate": {
        const body = this.value(ast.body, scope);
        if (!body) return undefined;
        return (input, env) => {
          const value = body(input, env);
          return value === NONE ? NONE : negate(value);
        };
      }
      case "pipe": {
        const left = this.value(ast.left, scope);
        const right = this.value(ast.right, scope);
        if (!left || !right) return undefined;
        return (input, env) => {
          const value = left(input, env);
          return value === NONE ? NONE : right(value, env);
        };
      }
      case "binary": {
        const left = this.value(ast.left, scope);
        const right = this.value(ast.right, scope);
        if (!left || !right) return undefined;
        const op = BINARY[ast.op];
        return (input, env) => {
          const b = right(input, env);
          if (b === NONE) return NONE;
          const a = left(input, env);
          return a === NONE ? NONE : op(a, b);
        };
      }
      case "and":
      case "or": {
        const left = this.value(ast.left, scope);
        const right = this.value(ast.right, scope);
        if (!left || !right) return undefined;
        const isAnd = ast.k === "and";
        return (input, env) => {
          const a = left(input, env);
          if (a === NONE) return NONE;
          if (truthy(a) !== isAnd) return !isAnd;
          const b = right(input, env);
          return b === NONE ? NONE : truthy(b);
        };
      }
      case "alternative": {
        const left = this.value(ast.left, scope);
        const right = this.value(ast.right, scope);
        if (!left || !right) return undefined;
        return (input, env) => {
          const a = left(input, env);
          return a !== NONE && truthy(a) ? a : right(input, env);
        };
      }
      case "if": {
        const cond = this.value(ast.cond, scope);
        const then = this.value(ast.then, scope);
        const otherwise = ast.else ? this.value(ast.else, scope) : undefined;
        if (!cond || !then || (ast.else && !otherwise)) return undefined;
        return (input, env) => {
          const test = cond(input, env);
          if (test === NONE) return NONE;
          if (truthy(test)) return then(input, env);
          return otherwise ? otherwise(input, env) : input;
        };
      }
      case "try": {
        const body = this.value(ast.body, scope);
        const handler = ast.handler ? this.value(ast.handler, scope) : undefined;
        if (!body || (ast.handler && !handler)) return undefined;
        // A direct body calls nothing downstream: every error it raises is its own.
        return (input, env) => {
          try {
            return body(input, env);
          } catch (error) {
            if (!(error instanceof JqFailure)) throw error;
            if (!handler) return NONE;
            if (!error.exact) throw new GiveWay("a caught error's wording");
            return handler(error.value, env);
          }
        };
      }
      case "bind": {
        const source = this.value(ast.source, scope);
        if (!source) return undefined;
        const { bind, names } = this.pattern(ast.pattern, scope);
        const body = this.value(ast.body, [...scope, ...names]);
        if (!body) return undefined;
        return (input, env) => {
          const value = source(input, env);
          return value === NONE ? NONE : body(input, bind(value, env));
        };
      }
      case "call": {
        const builtin = BUILTINS[`${ast.name}/${ast.args.length}`];
        if (!builtin?.value) return undefined;
        const args = this.callArgs(ast.name, ast.args, scope);
        return builtin.value(args);
      }
      default:
        return undefined;
    }
  }

  private noteLiteral(ast: Extract<Ast, { k: "literal" }>): void {
    if (typeof ast.value === "number" && !PLAIN_NUMBER.test(ast.raw ?? "")) {
      this.facts.exactNumberLiterals = true;
    }
  }

  /** A node's filter that calls back once per output (for generators). */
  private generator(ast: Ast, scope: Scope): Filter {
    switch (ast.k) {
      case "identity":
        return (input, _env, emit) => emit(input);
      case "recurseAll":
        return (input, _env, emit) => recurseValues(input, emit);
      case "literal": {
        this.noteLiteral(ast);
        const value = ast.value;
        return (_input, _env, emit) => emit(value);
      }
      case "string":
        return this.interpolation(ast.pieces, ast.format, scope);
      case "format": {
        const format = this.format(ast.name);
        return (input, _env, emit) => emit(applyFormat(format, input));
      }
      case "index": {
        const target = this.filter(ast.target, scope);
        const index = this.filter(ast.index, scope);
        const get = ast.opt ? optional(indexValue) : indexValue;
        // The key is the outer loop, as in jq (its subexpression runs first).
        return (input, env, emit) =>
          index(input, env, (key) =>
            target(input, env, (value) => {
              const result = get(value, key);
              if (result !== SKIP) emit(result);
            }),
          );
      }
      case "slice": {
        const target = this.filter(ast.target, scope);
        const from = ast.from ? this.filter(ast.from, scope) : constant(null);
        const to = ast.to ? this.filter(ast.to, scope) : constant(null);
        const opt = ast.opt === true;
        return (input, env, emit) =>
          to(input, env, (end) =>
            from(input, env, (start) =>
              target(input, env, (value) => {
                let result: Json;
                try {
                  result = sliceValue(value, start, end);
                } catch (error) {
                  if (opt && error instanceof JqFailure) return;
                  throw error;
                }
                emit(result);
              }),
            ),
          );
      }
      case "iterate": {
        const target = this.filter(ast.target, scope);
        const opt = ast.opt === true;
        return (input, env, emit) =>
          target(input, env, (value) => {
            if (opt && (value === null || typeof value !== "object")) return;
            eachEntry(value, (item) => emit(item));
          });
      }
      case "array": {
        if (!ast.body) return (_input, _env, emit) => emit([]);
        const body = this.filter(ast.body, scope);
        return (input, env, emit) => {
          const items: Json[] = [];
          body(input, env, (value) => {
            charge(1);
            items.push(value);
          });
          emit(items);
        };
      }
      case "object":
        return this.object(ast.entries, scope);
      case "negate": {
        const body = this.filter(ast.body, scope);
        return (input, env, emit) => body(input, env, (value) => emit(negate(value)));
      }
      case "pipe": {
        const left = this.filter(ast.left, scope);
        const right = this.filter(ast.right, scope);
        return (input, env, emit) => left(input, env, (value) => right(value, env, emit));
      }
      case "comma": {
        const left = this.filter(ast.left, scope);
        const right = this.filter(ast.right, scope);
        return (input, env, emit) => {
          left(input, env, emit);
          right(input, env, emit);
        };
      }
      case "binary": {
        const left = this.filter(ast.left, scope);
        const right = this.filter(ast.right, scope);
        const op = BINARY[ast.op];
        // The right operand is the outer loop: [(1,2) + (10,20)] is [11,12,21,22] in jq.
        return (input, env, emit) =>
          right(input, env, (b) => left(input, env, (a) => emit(op(a, b))));
      }
      case "and": {
        const left = this.filter(ast.left, scope);
        const right = this.filter(ast.right, scope);
        return (input, env, emit) =>
          left(input, env, (a) => {
            if (!truthy(a)) emit(false);
            else right(input, env, (b) => emit(truthy(b)));
          });
      }
      case "or": {
        const left = this.filter(ast.left, scope);
        const right = this.filter(ast.right, scope);
        return (input, env, emit) =>
          left(input, env, (a) => {
            if (truthy(a)) emit(true);
            else right(input, env, (b) => emit(truthy(b)));
          });
      }
      case "alternative": {
        // jq 1.8: the truthy outputs of the left side, or else the right side; errors of the
        // left side are not suppressed.
        const left = this.filter(ast.left, scope);
        const right = this.filter(ast.right, scope);
        return (input, env, emit) => {
          let found = false;
          left(input, env, (value) => {
            if (!truthy(value)) return;
            found = true;
            emit(value);
          });
          if (!found) right(input, env, emit);
        };
      }
      case "assign":
        return this.assign(ast.op, ast.left, ast.right, scope);
      case "if": {
        const cond = this.filter(ast.cond, scope);
        const then = this.filter(ast.then, scope);
        const otherwise = ast.else ? this.filter(ast.else, scope) : undefined;
        return (input, env, emit) =>
          cond(input, env, (value) => {
            if (truthy(value)) then(input, env, emit);
            else if (otherwise) otherwise(input, env, emit);
            else emit(input);
          });
      }
      case "try": {
        const body = this.filter(ast.body, scope);
        const handler = ast.handler ? this.filter(ast.handler, scope) : undefined;
        return (input, env, emit) => {
          const error = catchOwnErrors((inner) => body(input, env, inner), emit);
          if (!error || !handler) return;
          if (!error.exact) throw new GiveWay("a caught error's wording");
          handler(error.value, env, emit);
        };
      }
      case "reduce":
        return this.reduce(ast, scope);
      case "foreach":
        return this.foreach(ast, scope);
      case "bind": {
        const source = this.filter(ast.source, scope);
        const { bind, names } = this.pattern(ast.pattern, scope);
        const body = this.filter(ast.body, [...scope, ...names]);
        return (input, env, emit) =>
          source(input, env, (value) => body(input, bind(value, env), emit));
      }
      case "var": {
        if (ast.name === "ENV" && !scope.includes("ENV")) {
          return (_input, _env, emit) => emit({});
        }
        const depth = this.resolve(scope, ast.name);
        return (_input, env, emit) => emit(lookup(env, depth));
      }
      case "call":
        return this.call(ast.name, ast.args, scope);
    }
  }

  /** The node as a path expression, or Unsupported (jq reports the invalid path itself). */
  path(ast: Ast, scope: Scope): PathFilter {
    switch (ast.k) {
      case "identity":
        return (input, path, _env, emit) => emit(input, path);
      case "recurseAll":
        return (input, path, _env, emit) => recursePaths(input, path, emit);
      case "index": {
        const target = this.path(ast.target, scope);
        const index = this.filter(ast.index, scope);
        const get = ast.opt ? optional(indexValue) : indexValue;
        return (input, path, env, emit) =>
          index(input, env, (key) => {
            if (typeof key !== "string" && typeof key !== "number") {
              throw new GiveWay("path key");
            }
            target(input, path, env, (value, at) => {
              const result = value === null ? null : get(value, key);
              if (result !== SKIP) emit(result, [...at, key]);
            });
          });
      }
      case "iterate": {
        const target = this.path(ast.target, scope);
        const opt = ast.opt === true;
        return (input, path, env, emit) =>
          target(input, path, env, (value, at) => {
            if (opt && (value === null || typeof value !== "object")) return;
            eachEntry(value, (item, key) => emit(item, [...at, key]));
          });
      }
      case "pipe": {
        const left = this.path(ast.left, scope);
        const right = this.path(ast.right, scope);
        return (input, path, env, emit) =>
          left(input, path, env, (value, at) => right(value, at, env, emit));
      }
      case "comma": {
        const left = this.path(ast.left, scope);
        const right = this.path(ast.right, scope);
        return (input, path, env, emit) => {
          left(input, path, env, emit);
          right(input, path, env, emit);
        };
      }
      case "if": {
        const cond = this.filter(ast.cond, scope);
        const then = this.path(ast.then, scope);
        const otherwise = ast.else ? this.path(ast.else, scope) : undefined;
        return (input, path, env, emit) =>
          cond(input, env, (value) => {
            if (truthy(value)) then(input, path, env, emit);
            else if (otherwise) otherwise(input, path, env, emit);
            else emit(input, path);
          });
      }
      case "alternative": {
        const left = this.path(ast.left, scope);
        const right = this.path(ast.right, scope);
        return (input, path, env, emit) => {
          let found = false;
          left(input, path, env, (value, at) => {
            if (!truthy(value)) return;
            found = true;
            emit(value, at);
          });
          if (!found) right(input, path, env, emit);
        };
      }
      case "try": {
        if (ast.handler) throw new Unsupported("try/catch as a path");
        const body = this.path(ast.body, scope);
        return (input, path, env, emit) => {
          let downstream: unknown;
          try {
            body(input, path, env, (value, at) => {
              try {
                emit(value, at);
              } catch (error) {
                downstream = error;
                throw error;
              }
            });
          } catch (error) {
            if (error === downstream || !isJqFailure(error)) throw error;
          }
        };
      }
      case "bind": {
        const source = this.filter(ast.source, scope);
        const { bind, names } = this.pattern(ast.pattern, scope);
        const body = this.path(ast.body, [...scope, ...names]);
        return (input, path, env, emit) =>
          source(input, env, (value) => body(input, path, bind(value, env), emit));
      }
      case "call": {
        const builtin = BUILTINS[`${ast.name}/${ast.args.length}`];
        if (!builtin?.path) throw new Unsupported(`${ast.name} as a path`);
        return builtin.path(ast.args.map((arg) => this.arg(arg, scope)));
      }
      default:
        throw new Unsupported(`${ast.k} as a path`);
    }
  }

  private call(name: string, args: Ast[], scope: Scope): Filter {
    const compiled = this.callArgs(name, args, scope);
    return (BUILTINS[`${name}/${args.length}`] as Builtin).filter(compiled);
  }

  private callArgs(name: string, args: Ast[], scope: Scope): CompiledArg[] {
    const builtin = BUILTINS[`${name}/${args.length}`];
    if (!builtin) throw new Unsupported(`${name}/${args.length}`);
    if (builtin.stringifies) this.facts.stringifiesNumbers = true;
    const compiled = args.map((arg) => this.arg(arg, scope));
    if (builtin.singleArgs && compiled.some((arg) => !arg.single)) {
      throw new Unsupported(`${name} with generator arguments`);
    }
    return compiled;
  }

  private format(name: string) {
    const format = FORMATS[name];
    if (!format) throw new Unsupported(`@${name}`);
    this.facts.stringifiesNumbers = true;
    return format;
  }

  private interpolation(
    pieces: readonly (string | Ast)[],
    formatName: string,
    scope: Scope,
  ): Filter {
    const format = this.format(formatName);
    const parts = pieces.map((piece) =>
      typeof piece === "string" ? piece : this.filter(piece, scope),
    );
    // jq builds "a\(x)b\(y)" as (("a" + f(x)) + "b") + f(y): later pieces are outer loops.
    const build = (count: number, input: Json, env: Env, emit: (text: string) => void): void => {
      if (count === 0) {
        emit("");
        return;
      }
      const part = parts[count - 1] as string | Filter;
      if (typeof part === "string") {
        build(count - 1, input, env, (prefix) => emit(prefix + part));
        return;
      }
      part(input, env, (value) => {
        const text = applyFormat(format, value);
        build(count - 1, input, env, (prefix) => {
          chargeBuilt(prefix.length + text.length);
          emit(prefix + text);
        });
      });
    };
    return (input, env, emit) => build(parts.length, input, env, emit);
  }

  /**
   * `{k: v, ...}`: each entry's key and value outputs are gathered in order (key outer, value
   * inner); when every entry has exactly one, the object is built once, otherwise one object per
   * combination, first entry outermost as in jq. Gathering before building changes only which of
   * several errors comes first, and any error goes to jq anyway.
   */
  private object(entries: readonly { key: Ast; value: Ast }[], scope: Scope): Filter {
    const compiled = entries.map((entry) => ({
      key: this.filter(entry.key, scope),
      constantKey:
        entry.key.k === "literal" && typeof entry.key.value === "string"
          ? entry.key.value
          : undefined,
      value: this.filter(entry.value, scope),
    }));
    const combine = (
      options: readonly (readonly [string, Json][])[],
      index: number,
      built: JsonObject,
      emit: Emit,
    ): void => {
      const choices = options[index];
      if (!choices) {
        emit(built);
        return;
      }
      for (const [key, value] of choices) {
        charge(1);
        const next: JsonObject = { ...built };
        next[key] = value;
        combine(options, index + 1, next, emit);
      }
    };
    return (input, env, emit) => {
      const options: [string, Json][][] = [];
      let single = true;
      for (const entry of compiled) {
        const choices: [string, Json][] = [];
        const withKey = (key: string) =>
          entry.value(input, env, (value) => {
            charge(1);
            choices.push([key, value]);
          });
        if (entry.constantKey !== undefined) withKey(checkKey(entry.constantKey));
        else {
          entry.key(input, env, (key) => {
            if (typeof key !== "string") fail("Object keys must be strings");
            withKey(checkKey(key));
          });
        }
        if (choices.length === 0) return;
        if (choices.length !== 1) single = false;
        options.push(choices);
      }
      if (!single) {
        combine(options, 0, {}, emit);
        return;
      }
      const object: JsonObject = {};
      for (const choices of options) {
        const [key, value] = choices[0] as [string, Json];
        object[key] = value;
      }
      emit(object);
    };
  }

  private reduce(ast: Extract<Ast, { k: "reduce" }>, scope: Scope): Filter {
    const source = this.filter(ast.source, scope);
    const { bind, names } = this.pattern(ast.pattern, scope);
    const init = this.filter(ast.init, scope);
    const update = this.filter(ast.update, [...scope, ...names]);
    return (input, env, emit) =>
      eachInit(init, input, env, (start) => {
        let state: Json = start;
        source(input, env, (item) => {
          charge(1);
          const inner = bind(item, env);
          // The last output of the update is the new state; no output makes it null.
          let next: Json = null;
          update(state, inner, (value) => {
            next = value;
          });
          state = next;
        });
        emit(state);
      });
  }

  private foreach(ast: Extract<Ast, { k: "foreach" }>, scope: Scope): Filter {
    const source = this.filter(ast.source, scope);
    const { bind, names } = this.pattern(ast.pattern, scope);
    const init = this.filter(ast.init, scope);
    const inner = [...scope, ...names];
    const update = this.filter(ast.update, inner);
    const extract = ast.extract ? this.filter(ast.extract, inner) : undefined;
    return (input, env, emit) =>
      eachInit(init, input, env, (start) => {
        let state: Json = start;
        source(input, env, (item) => {
          charge(1);
          const bound = bind(item, env);
          // Each output of the update is emitted and becomes the state; none makes it null.
          let updated = false;
          update(state, bound, (value) => {
            updated = true;
            state = value;
            if (extract) extract(value, bound, emit);
            else emit(value);
          });
          if (!updated) state = null;
        });
      });
  }

  /** A destructuring pattern: how it binds a value, and the names it adds (in order). */
  private pattern(
    pattern: Pattern,
    scope: Scope,
  ): { bind: (value: Json, env: Env) => Env; names: string[] } {
    const names: string[] = [];
    const binder = this.binder(pattern, scope, names);
    return { bind: (value, env) => binder(value, env), names };
  }

  private binder(pattern: Pattern, scope: Scope, names: string[]): (value: Json, env: Env) => Env {
    switch (pattern.k) {
      case "var":
        names.push(pattern.name);
        return (value, env) => bindValue(env, value);
      case "array": {
        const items = pattern.items.map((item) => this.binder(item, scope, names));
        return (value, env) => {
          if (value !== null && !Array.isArray(value)) fail("Cannot index with number");
          let current = env;
          items.forEach((item, index) => {
            current = item(indexValue(value, index), current);
          });
          return current;
        };
      }
      case "object": {
        const entries = pattern.entries.map((entry) => {
          if (entry.key.k !== "literal" || typeof entry.key.value !== "string") {
            throw new Unsupported("computed key in a pattern");
          }
          const key = entry.key.value;
          if (entry.bindAs !== undefined) names.push(entry.bindAs);
          const value = entry.value ? this.binder(entry.value, scope, names) : undefined;
          return { key, bindAs: entry.bindAs !== undefined, value };
        });
        return (input, env) => {
          let current = env;
          for (const entry of entries) {
            const value = indexValue(input, entry.key);
            if (entry.bindAs) current = bindValue(current, value);
            if (entry.value) current = entry.value(value, current);
          }
          return current;
        };
      }
    }
  }

  private assign(op: AssignOp, left: Ast, right: Ast, scope: Scope): Filter {
    const paths = this.path(left, scope);
    const value = this.filter(right, scope);
    const allPaths = (input: Json, env: Env): PathKey[][] => {
      const found: PathKey[][] = [];
      paths(input, [], env, (_value, path) => {
        charge(1);
        found.push([...path]);
      });
      return found;
    };
    if (op === "=") {
      return (input, env, emit) =>
        value(input, env, (assigned) => {
          let result = input;
          for (const path of allPaths(input, env)) result = setPath(result, path, assigned);
          emit(result);
        });
    }
    if (op === "|=") {
      return (input, env, emit) =>
        emit(modify(input, allPaths(input, env), (current, set) => value(current, env, set)));
    }
    const combine = op === "//=" ? undefined : UPDATE_OPS[op];
    return (input, env, emit) =>
      value(input, env, (operand) => {
        const update = (current: Json, set: Emit) => {
          if (combine) set(combine(current, operand));
          else set(truthy(current) ? current : operand);
        };
        emit(modify(input, allPaths(input, env), update));
      });
  }
}

/**
 * jq's `_modify`: each path in turn gets the first output of the update of its current value; a
 * path whose update has no output is deleted once all are done.
 */
function modify(
  input: Json,
  paths: readonly PathKey[][],
  update: (current: Json, set: Emit) => void,
): Json {
  let result = input;
  const deleted: PathKey[][] = [];
  for (const path of paths) {
    let replaced = false;
    let next: Json = null;
    const stop = {};
    try {
      update(getPath(result, path), (value) => {
        replaced = true;
        next = value;
        throw stop;
      });
    } catch (error) {
      if (error !== stop) throw error;
    }
    if (replaced) result = setPath(result, path, next);
    else deleted.push(path);
  }
  return deleted.length > 0 ? deletePaths(result, deleted) : result;
}

function isJqFailure(error: unknown): boolean {
  return error instanceof JqFailure;
}

/**
 * The start value of `reduce` and `foreach`. jq 1.8.2 evaluates the source against null instead of
 * `.` for every start value after the first, so more than one is left to jq.
 */
function eachInit(init: Filter, input: Json, env: Env, body: (start: Json) => void): void {
  let count = 0;
  init(input, env, (start) => {
    if (++count > 1) throw new GiveWay("several start values");
    body(start);
  });
}

/** What an optional index answers instead of failing. */
const SKIP = Symbol("skip");

function optional(
  get: (target: Json, key: Json) => Json,
): (target: Json, key: Json) => Json | typeof SKIP {
  return (target, key) => {
    try {
      return get(target, key);
    } catch (error) {
      if (error instanceof JqFailure) return SKIP;
      throw error;
    }
  };
}

function constant(value: Json): Filter {
  return (_input, _env, emit) => emit(value);
}

/** `..`: the value, then recursively everything inside it (`recurse(.[]?)`). */
export function recurseValues(value: Json, emit: Emit): void {
  charge(1);
  emit(value);
  if (Array.isArray(value)) for (const item of value) recurseValues(item, emit);
  else if (value !== null && typeof value === "object") {
    for (const key of Object.keys(value)) recurseValues(value[key] as Json, emit);
  }
}

export function recursePaths(value: Json, path: readonly PathKey[], emit: PathEmit): void {
  charge(1);
  emit(value, path);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      recursePaths(value[index] as Json, [...path, index], emit);
    }
  } else if (value !== null && typeof value === "object") {
    for (const key of Object.keys(value)) recursePaths(value[key] as Json, [...path, key], emit);
  }
}

/** Whether an expression has at most one output (so argument order cannot show). */
export function singleOutput(ast: Ast): boolean {
  switch (ast.k) {
    case "identity":
    case "literal":
    case "var":
    case "format":
      return true;
    case "string":
      return ast.pieces.every((piece) => typeof piece === "string" || singleOutput(piece));
    case "array":
      return true;
    case "object":
      return ast.entries.every((entry) => singleOutput(entry.key) && singleOutput(entry.value));
    case "index":
      return singleOutput(ast.target) && singleOutput(ast.index);
    case "negate":
      return singleOutput(ast.body);
    case "binary":
    case "and":
    case "or":
      return singleOutput(ast.left) && singleOutput(ast.right);
    case "pipe":
      return singleOutput(ast.left) && singleOutput(ast.right);
    default:
      return false;
  }
}

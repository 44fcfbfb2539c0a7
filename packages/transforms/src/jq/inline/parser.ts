// A parser for the inline subset of jq's grammar, with jq 1.8.2's precedences: '|' (right) < ','
// < '//' (right) < 'or' < 'and' < comparisons (not chained) < '+' '-' < '*' '/' '%' < prefix '-'
// (on a term) < postfix '.a' '[i]' '[]' '?'. `E as $x | body` takes as E everything tighter than
// ',' (`1 + 2 as $x | $x` binds 3); an object value is an expression without ',' or `as`.
// Anything else (assignments, `if`, `reduce`, `def`, `try`, slices, patterns, other builtins), and
// anything jq would reject, is `Unsupported`: jq answers (or reports it).
import type { Ast, BinaryOp, Builtin } from "./ast.js";
import { type Token, tokenize, Unsupported } from "./lexer.js";

/** Binary operator levels, loosest first: `//` groups to the right, comparisons not at all. */
const LEVELS = [
  ["//"],
  ["or"],
  ["and"],
  ["==", "!=", "<", "<=", ">", ">="],
  ["+", "-"],
  ["*", "/", "%"],
];
const BUILTINS = new Set<string>(["empty", "not", "length", "keys"] satisfies Builtin[]);
const BUILTINS_OF_ONE = new Set<string>(["select", "map"] satisfies Builtin[]);

export function parseJq(source: string): Ast {
  const parser = new Parser(tokenize(source));
  const ast = parser.pipe();
  parser.expect("eof");
  return ast;
}

class Parser {
  private at = 0;

  constructor(private readonly tokens: Token[]) {}

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.at + offset, this.tokens.length - 1)] as Token;
  }

  /** Takes the next token when it is the operator (or word) `value`. */
  private accept(value: string): boolean {
    const token = this.peek();
    if ((token.t !== "op" && token.t !== "ident") || token.v !== value) return false;
    this.at++;
    return true;
  }

  expect(value: string): void {
    if (value === "eof" ? this.peek().t !== "eof" : !this.accept(value)) {
      throw new Unsupported(`expected ${value}`);
    }
  }

  pipe(): Ast {
    const left = this.comma();
    return this.accept("|") ? { k: "pipe", left, right: this.pipe() } : left;
  }

  private comma(): Ast {
    let left = this.bound();
    while (this.accept(",")) left = { k: "comma", left, right: this.bound() };
    return left;
  }

  /** An operand of ',': an expression, bound to a variable for a body when `as` follows. */
  private bound(): Ast {
    const source = this.binary(0);
    if (!this.accept("as")) return source;
    const token = this.peek();
    if (token.t !== "var") throw new Unsupported("destructuring");
    this.at++;
    this.expect("|");
    return { k: "bind", source, name: token.v, body: this.pipe() };
  }

  /** Operators of `level` and tighter. */
  private binary(level: number): Ast {
    const ops = LEVELS[level];
    if (!ops) return this.operand();
    let left = this.binary(level + 1);
    for (let chained = false; ; chained = true) {
      const token = this.peek();
      const op = token.t === "op" || token.t === "ident" ? token.v : "";
      if (!ops.includes(op)) return left;
      // jq rejects `a < b < c`.
      if (chained && level === 3) throw new Unsupported("chained comparison");
      this.at++;
      const right = this.binary(op === "//" ? level : level + 1);
      if (op === "//") left = { k: "alternative", left, right };
      else if (op === "and" || op === "or") left = { k: op, left, right };
      else left = { k: "binary", op: op as BinaryOp, left, right };
    }
  }

  /** A term, or prefix '-' on a term (jq 1.8.2: `-null * null` fails at the negation). */
  private operand(): Ast {
    return this.accept("-") ? { k: "negate", body: this.operand() } : this.term();
  }

  /** A primary and its postfix forms: `.a`, `."a"`, `[i]`, `.[i]`, `[]`, each with `?`. */
  private term(): Ast {
    let term = this.primary();
    for (;;) {
      let token = this.peek();
      const dotted = token.t === "op" && token.v === ".";
      if (dotted) {
        token = this.peek(1);
        if (token.t !== "str" && token.v !== "[") return term;
        this.at++;
      }
      if (token.t === "field" || (dotted && token.t === "str")) {
        this.at++;
        term = this.optional({ k: "index", target: term, index: literal(token.v), opt: false });
      } else if (token.t === "op" && token.v === "[") {
        this.at++;
        if (this.accept("]")) {
          term = this.optional({ k: "iterate", target: term, opt: false });
          continue;
        }
        const index = this.pipe();
        this.expect("]");
        term = this.optional({ k: "index", target: term, index, opt: false });
      } else {
        return term;
      }
    }
  }

  /** `?` right after an index belongs to it (jq's INDEX_OPT); any other `?` is jq's. */
  private optional<T extends Ast & { opt: boolean }>(term: T): T {
    return this.accept("?") ? { ...term, opt: true } : term;
  }

  private primary(): Ast {
    const token = this.peek();
    this.at++;
    if (token.t === "num" || token.t === "str") {
      return literal(token.t === "num" ? Number(token.v) : token.v);
    }
    if (token.t === "var") return { k: "var", name: token.v };
    if (token.t === "ident") return this.call(token.v);
    // `.a` and `."a"`: the postfix loop reads them after `.`.
    if (token.t === "field" || (token.v === "." && this.peek().t === "str")) this.at--;
    if (token.t === "field" || token.v === ".") return { k: "identity" };
    if (token.t !== "op" || !["(", "[", "{"].includes(token.v)) {
      throw new Unsupported(`unexpected ${token.v}`);
    }
    if (token.v === "{") return this.object();
    if (token.v === "[" && this.accept("]")) return { k: "array", body: null };
    const body = this.pipe();
    this.expect(token.v === "(" ? ")" : "]");
    return token.v === "(" ? body : { k: "array", body };
  }

  private call(name: string): Ast {
    if (name === "true" || name === "false") return literal(name === "true");
    if (name === "null") return literal(null);
    if (BUILTINS.has(name)) return { k: "call", name: name as Builtin, arg: null };
    if (!BUILTINS_OF_ONE.has(name)) throw new Unsupported(`builtin ${name}`);
    this.expect("(");
    const arg = this.pipe();
    this.expect(")");
    return { k: "call", name: name as Builtin, arg };
  }

  private object(): Ast {
    const entries: { key: Ast; value: Ast }[] = [];
    while (!this.accept("}")) {
      if (entries.length > 0) this.expect(",");
      entries.push(this.objectEntry());
    }
    return { k: "object", entries };
  }

  /** `a: v`, `"a": v`, `$x: v`, `(e): v`, and the shorthands `a`, `"a"`, `$x`. */
  private objectEntry(): { key: Ast; value: Ast } {
    const token = this.peek();
    this.at++;
    let key: Ast;
    if (token.t === "var") {
      if (!this.accept(":")) return { key: literal(token.v), value: { k: "var", name: token.v } };
      key = { k: "var", name: token.v };
    } else if (token.t === "ident" || token.t === "str") {
      key = literal(token.v);
      if (!this.accept(":")) {
        return { key, value: { k: "index", target: { k: "identity" }, index: key, opt: false } };
      }
    } else if (token.t === "op" && token.v === "(") {
      key = this.pipe();
      this.expect(")");
      // jq rejects a constant key that is not a string when it compiles; constant keys are its.
      if (!readsInput(key)) throw new Unsupported("constant object key");
      this.expect(":");
    } else {
      throw new Unsupported("object key");
    }
    let value = this.binary(0);
    while (this.accept("|")) value = { k: "pipe", left: value, right: this.binary(0) };
    return { key, value };
  }
}

function literal(value: null | boolean | number | string): Ast {
  return { k: "literal", value };
}

/** Whether an expression reads `.` or a variable (so jq cannot fold it into a constant). */
function readsInput(node: object): boolean {
  if ("k" in node && (node.k === "identity" || node.k === "var" || node.k === "call")) return true;
  return Object.values(node).some((part) => typeof part === "object" && part && readsInput(part));
}

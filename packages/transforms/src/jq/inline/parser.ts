// A parser for the jq grammar (jq 1.8's parser.y) over the tokens of lexer.ts, with its
// precedences:
//   '|' (right) < ',' (left) < '//' (right) < '=' '|=' '+=' ... (none) < 'or' < 'and'
//   < '==' '!=' '<' '<=' '>' '>=' (none) < '+' '-' (left) < '*' '/' '%' (left) < '?' < 'try'
// Prefix forms (`reduce`, `foreach`, `if`, `try`, `label`, `def`) are operands of any operator,
// prefix `-` negates the term after it; postfix forms (`.a`, `[i]`, `[]`, `?`) apply to terms. A binding `E as $x | body`
// takes as E everything tighter than ',' (jq 1.8.2: `1 + 2 as $x | $x` binds 3), and so do the
// sources of `reduce` and `foreach`. What this
// subset leaves out (`def`, `label`, `?//`, `$__loc__`, modules) is `Unsupported`, and so is
// anything jq would reject, so that jq reports it.
import type { AssignOp, Ast, BinaryOp, Pattern, StringPiece } from "./ast.js";
import { type StringPart, type Token, tokenize, Unsupported } from "./lexer.js";

interface Level {
  ops: readonly string[];
  assoc: "left" | "right" | "none";
}

/** Binary operator levels, loosest first (',' and '|' are handled apart from these). */
const LEVELS: readonly Level[] = [
  { ops: ["//"], assoc: "right" },
  { ops: ["=", "|=", "+=", "-=", "*=", "/=", "%=", "//="], assoc: "none" },
  { ops: ["or"], assoc: "left" },
  { ops: ["and"], assoc: "left" },
  { ops: ["==", "!=", "<", "<=", ">", ">="], assoc: "none" },
  { ops: ["+", "-"], assoc: "left" },
  { ops: ["*", "/", "%"], assoc: "left" },
];

export function parseJq(source: string): Ast {
  const parser = new Parser(tokenize(source));
  const ast = parser.pipe();
  parser.expectEnd();
  return ast;
}

class Parser {
  private at = 0;

  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.at] as Token;
  }

  private isOp(value: string): boolean {
    const token = this.peek();
    return token.t === "op" && token.v === value;
  }

  private isKeyword(value: string): boolean {
    const token = this.peek();
    return token.t === "keyword" && token.v === value;
  }

  private take(): Token {
    const token = this.peek();
    if (token.t !== "eof") this.at++;
    return token;
  }

  private expectOp(value: string): void {
    if (!this.isOp(value)) throw new Unsupported(`expected ${value}`);
    this.at++;
  }

  private expectKeyword(value: string): void {
    if (!this.isKeyword(value)) throw new Unsupported(`expected ${value}`);
    this.at++;
  }

  expectEnd(): void {
    if (this.peek().t !== "eof") throw new Unsupported("trailing tokens");
  }

  /** Exp at the loosest level: pipes. */
  pipe(): Ast {
    const left = this.comma();
    if (this.isOp("|")) {
      this.take();
      return { k: "pipe", left, right: this.pipe() };
    }
    return left;
  }

  private comma(): Ast {
    let left = this.bound();
    while (this.isOp(",")) {
      this.take();
      left = { k: "comma", left, right: this.bound() };
    }
    return left;
  }

  /** An operand of ',': an expression, bound to variables for a body when `as` follows. */
  private bound(): Ast {
    const source = this.binary(0);
    if (!this.isKeyword("as")) return source;
    this.take();
    const pattern = this.patterns();
    this.expectOp("|");
    return { k: "bind", source, pattern, body: this.pipe() };
  }

  private binaryOpAt(level: number): string | undefined {
    const token = this.peek();
    const spec = LEVELS[level];
    if (!spec) return undefined;
    if (token.t === "op" && spec.ops.includes(token.v)) return token.v;
    if (token.t === "keyword" && spec.ops.includes(token.v)) return token.v;
    return undefined;
  }

  /** Operators of `level` and tighter. */
  private binary(level: number): Ast {
    if (level >= LEVELS.length) return this.postfix();
    const spec = LEVELS[level] as Level;
    let left = this.binary(level + 1);
    for (;;) {
      const op = this.binaryOpAt(level);
      if (op === undefined) return left;
      this.take();
      const right = spec.assoc === "right" ? this.binary(level) : this.binary(level + 1);
      left = combine(op, left, right);
      if (spec.assoc === "none" && this.binaryOpAt(level) !== undefined) {
        throw new Unsupported("non-associative operators chained");
      }
    }
  }

  /** An operand with any postfix `?`. */
  private postfix(): Ast {
    let body = this.operand();
    while (this.isOp("?")) {
      this.take();
      body = { k: "try", body, handler: null };
    }
    return body;
  }

  /** Prefix forms, or a term (with `as` bindings). */
  private operand(): Ast {
    const token = this.peek();
    if (token.t === "op" && token.v === "-") return this.negation();
    if (token.t === "keyword") {
      switch (token.v) {
        case "reduce":
          return this.reduce();
        case "foreach":
          return this.foreach();
        case "if":
          return this.ifThen();
        case "try": {
          // "try" binds tighter than any operator and than '?': `try .a? catch .` is an error
          // in jq, `try .a | .b` is `(try .a) | .b`.
          this.take();
          const body = this.operand();
          if (!this.isKeyword("catch")) return { k: "try", body, handler: null };
          this.take();
          return { k: "try", body, handler: this.operand() };
        }
        default:
          throw new Unsupported(`keyword ${token.v}`);
      }
    }
    return this.term();
  }

  /** Prefix '-' applies to the term after it (jq 1.8.2: `-null * null` fails at the negation). */
  private negation(): Ast {
    this.expectOp("-");
    return { k: "negate", body: this.isOp("-") ? this.negation() : this.term() };
  }

  private reduce(): Ast {
    this.expectKeyword("reduce");
    const source = this.binary(0);
    this.expectKeyword("as");
    const pattern = this.patterns();
    this.expectOp("(");
    const init = this.pipe();
    this.expectOp(";");
    const update = this.pipe();
    this.expectOp(")");
    return { k: "reduce", source, pattern, init, update };
  }

  private foreach(): Ast {
    this.expectKeyword("foreach");
    const source = this.binary(0);
    this.expectKeyword("as");
    const pattern = this.patterns();
    this.expectOp("(");
    const init = this.pipe();
    this.expectOp(";");
    const update = this.pipe();
    let extract: Ast | null = null;
    if (this.isOp(";")) {
      this.take();
      extract = this.pipe();
    }
    this.expectOp(")");
    return { k: "foreach", source, pattern, init, update, extract };
  }

  private ifThen(): Ast {
    this.expectKeyword("if");
    const cond = this.pipe();
    this.expectKeyword("then");
    const then = this.pipe();
    return { k: "if", cond, then, else: this.elseBody() };
  }

  private elseBody(): Ast | null {
    if (this.isKeyword("elif")) {
      this.take();
      const cond = this.pipe();
      this.expectKeyword("then");
      const then = this.pipe();
      return { k: "if", cond, then, else: this.elseBody() };
    }
    if (this.isKeyword("else")) {
      this.take();
      const body = this.pipe();
      this.expectKeyword("end");
      return body;
    }
    this.expectKeyword("end");
    return null;
  }

  private patterns(): Pattern {
    const pattern = this.pattern();
    if (this.isOp("?//")) throw new Unsupported("destructuring alternatives");
    return pattern;
  }

  private pattern(): Pattern {
    const token = this.take();
    if (token.t === "var") return { k: "var", name: token.v };
    if (token.t === "op" && token.v === "[") {
      const items = [this.pattern()];
      while (this.isOp(",")) {
        this.take();
        items.push(this.pattern());
      }
      this.expectOp("]");
      return { k: "array", items };
    }
    if (token.t === "op" && token.v === "{") {
      const entries: { key: Ast; bindAs?: string; value?: Pattern }[] = [];
      do {
        if (entries.length > 0) this.take();
        entries.push(this.objectPatternEntry());
      } while (this.isOp(","));
      this.expectOp("}");
      return { k: "object", entries };
    }
    throw new Unsupported("pattern");
  }

  private objectPatternEntry(): { key: Ast; bindAs?: string; value?: Pattern } {
    const token = this.take();
    if (token.t === "var") {
      const key: Ast = { k: "literal", value: token.v };
      if (!this.isOp(":")) return { key, bindAs: token.v };
      this.take();
      return { key, bindAs: token.v, value: this.pattern() };
    }
    let key: Ast;
    if (token.t === "ident" || token.t === "keyword") key = { k: "literal", value: token.v };
    else if (token.t === "str") key = this.stringLiteral(token.parts, "text");
    else if (token.t === "op" && token.v === "(") {
      key = this.pipe();
      this.expectOp(")");
    } else throw new Unsupported("object pattern key");
    this.expectOp(":");
    return { key, value: this.pattern() };
  }

  /** A term and its postfix index, iterate and slice forms. */
  private term(): Ast {
    let term = this.primary();
    for (;;) {
      const token = this.peek();
      if (token.t === "field") {
        this.take();
        term = this.optionalSuffix({ k: "index", target: term, index: literal(token.v) });
        continue;
      }
      if (token.t === "op" && token.v === ".") {
        const next = this.tokens[this.at + 1];
        if (next?.t === "str") {
          this.take();
          this.take();
          term = this.optionalSuffix({
            k: "index",
            target: term,
            index: this.stringLiteral(next.parts, "text"),
          });
          continue;
        }
        if (next?.t === "op" && next.v === "[") {
          this.take();
          term = this.bracketSuffix(term);
          continue;
        }
        return term;
      }
      if (token.t === "op" && token.v === "[") {
        term = this.bracketSuffix(term);
        continue;
      }
      return term;
    }
  }

  /**
   * `?` right after a postfix form belongs to it (jq's NONOPT rules): it suppresses that index's
   * own error only (`1 | .a.b?` still fails at `.a`), unlike `Exp '?'`.
   */
  private optionalSuffix(term: Ast): Ast {
    if (!this.isOp("?")) return term;
    if (term.k !== "index" && term.k !== "slice" && term.k !== "iterate") return term;
    this.take();
    return { ...term, opt: true };
  }

  private bracketSuffix(target: Ast): Ast {
    this.expectOp("[");
    if (this.isOp("]")) {
      this.take();
      return this.optionalSuffix({ k: "iterate", target });
    }
    if (this.isOp(":")) {
      this.take();
      const to = this.pipe();
      this.expectOp("]");
      return this.optionalSuffix({ k: "slice", target, from: null, to });
    }
    const index = this.pipe();
    if (this.isOp(":")) {
      this.take();
      if (this.isOp("]")) {
        this.take();
        return this.optionalSuffix({ k: "slice", target, from: index, to: null });
      }
      const to = this.pipe();
      this.expectOp("]");
      return this.optionalSuffix({ k: "slice", target, from: index, to });
    }
    this.expectOp("]");
    return this.optionalSuffix({ k: "index", target, index });
  }

  private primary(): Ast {
    const token = this.take();
    switch (token.t) {
      case "num":
        return { k: "literal", value: token.v, raw: token.raw };
      case "str":
        return this.stringLiteral(token.parts, "text");
      case "format": {
        const next = this.peek();
        if (next.t === "str") {
          this.take();
          return this.stringLiteral(next.parts, token.v);
        }
        return { k: "format", name: token.v };
      }
      case "field":
        return this.optionalSuffix({
          k: "index",
          target: { k: "identity" },
          index: literal(token.v),
        });
      case "var":
        return { k: "var", name: token.v };
      case "ident":
        return this.call(token.v);
      case "op":
        return this.primaryOp(token.v);
      default:
        throw new Unsupported(token.t === "keyword" ? `keyword ${token.v}` : "unexpected end");
    }
  }

  private primaryOp(op: string): Ast {
    switch (op) {
      case ".": {
        const next = this.peek();
        if (next.t === "str") {
          this.take();
          return this.optionalSuffix({
            k: "index",
            target: { k: "identity" },
            index: this.stringLiteral(next.parts, "text"),
          });
        }
        return { k: "identity" };
      }
      case "..":
        return { k: "recurseAll" };
      case "(": {
        const body = this.pipe();
        this.expectOp(")");
        return body;
      }
      case "[": {
        if (this.isOp("]")) {
          this.take();
          return { k: "array", body: null };
        }
        const body = this.pipe();
        this.expectOp("]");
        return { k: "array", body };
      }
      case "{":
        return this.object();
      default:
        throw new Unsupported(`unexpected ${op}`);
    }
  }

  private call(name: string): Ast {
    if (name === "true" || name === "false" || name === "null") {
      return literal(name === "null" ? null : name === "true");
    }
    const args: Ast[] = [];
    if (this.isOp("(")) {
      this.take();
      args.push(this.pipe());
      while (this.isOp(";")) {
        this.take();
        args.push(this.pipe());
      }
      this.expectOp(")");
    }
    return { k: "call", name, args };
  }

  private object(): Ast {
    const entries: { key: Ast; value: Ast }[] = [];
    if (this.isOp("}")) {
      this.take();
      return { k: "object", entries };
    }
    for (;;) {
      entries.push(this.objectEntry());
      if (this.isOp("}")) {
        this.take();
        return { k: "object", entries };
      }
      this.expectOp(",");
    }
  }

  private objectEntry(): { key: Ast; value: Ast } {
    const token = this.take();
    if (token.t === "var") {
      if (token.v === "__loc__") throw new Unsupported("$__loc__");
      const variable: Ast = { k: "var", name: token.v };
      if (!this.isOp(":")) return { key: literal(token.v), value: variable };
      this.take();
      return { key: variable, value: this.objectValue() };
    }
    if (token.t === "ident" || token.t === "keyword") {
      if (!this.isOp(":")) {
        return { key: literal(token.v), value: indexOf({ k: "identity" }, literal(token.v)) };
      }
      this.take();
      return { key: literal(token.v), value: this.objectValue() };
    }
    if (token.t === "str" || token.t === "format") {
      let key: Ast;
      if (token.t === "format") {
        const next = this.take();
        if (next.t !== "str") throw new Unsupported("format as object key");
        key = this.stringLiteral(next.parts, token.v);
      } else {
        key = this.stringLiteral(token.parts, "text");
      }
      if (!this.isOp(":")) return { key, value: indexOf({ k: "identity" }, key) };
      this.take();
      return { key, value: this.objectValue() };
    }
    if (token.t === "num") throw new Unsupported("number as object key");
    if (token.t === "op" && token.v === "(") {
      const key = this.pipe();
      this.expectOp(")");
      // jq folds constant keys at compile time and rejects the program when one is not a string.
      if (isClosed(key) && !(key.k === "literal" && typeof key.value === "string")) {
        throw new Unsupported("constant object key");
      }
      this.expectOp(":");
      return { key, value: this.objectValue() };
    }
    throw new Unsupported("object key");
  }

  /** ExpD: a term, `-` ExpD, or ExpD | ExpD. */
  private objectValue(): Ast {
    let value = this.objectValueTerm();
    while (this.isOp("|")) {
      this.take();
      value = { k: "pipe", left: value, right: this.objectValueTerm() };
    }
    return value;
  }

  private objectValueTerm(): Ast {
    if (this.isOp("-")) {
      this.take();
      return { k: "negate", body: this.objectValueTerm() };
    }
    return this.term();
  }

  private stringLiteral(parts: StringPart[], format: string): Ast {
    const pieces: StringPiece[] = parts.map((part) => {
      if (typeof part === "string") return part;
      const inner = new Parser(part);
      const ast = inner.pipe();
      inner.expectEnd();
      return ast;
    });
    if (pieces.every((piece) => typeof piece === "string")) return literal(pieces.join(""));
    return { k: "string", pieces, format };
  }
}

/** An expression made of literals only (jq may fold it into a constant). */
function isClosed(ast: Ast): boolean {
  switch (ast.k) {
    case "literal":
      return true;
    case "array":
      return ast.body === null || isClosed(ast.body);
    case "object":
      return ast.entries.every((entry) => isClosed(entry.key) && isClosed(entry.value));
    case "negate":
      return isClosed(ast.body);
    case "binary":
    case "comma":
    case "pipe":
    case "and":
    case "or":
    case "alternative":
      return isClosed(ast.left) && isClosed(ast.right);
    default:
      return false;
  }
}

function literal(value: string | boolean | null): Ast {
  return { k: "literal", value };
}

function indexOf(target: Ast, index: Ast): Ast {
  return { k: "index", target, index };
}

function combine(op: string, left: Ast, right: Ast): Ast {
  switch (op) {
    case "//":
      return { k: "alternative", left, right };
    case "and":
      return { k: "and", left, right };
    case "or":
      return { k: "or", left, right };
    case "=":
    case "|=":
    case "+=":
    case "-=":
    case "*=":
    case "/=":
    case "%=":
    case "//=":
      return { k: "assign", op: op as AssignOp, left, right };
    default:
      return { k: "binary", op: op as BinaryOp, left, right };
  }
}

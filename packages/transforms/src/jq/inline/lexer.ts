// Tokens of jq programs, as jq 1.8's lexer reads them. Anything it does not know (modules,
// namespaced names, comments continued by a backslash) is `Unsupported`: the program then runs
// in jq itself, which also reports real syntax errors in its own words.

export class Unsupported {
  constructor(readonly reason: string) {}
}

export type Token =
  | { t: "ident"; v: string }
  | { t: "keyword"; v: string }
  | { t: "field"; v: string }
  | { t: "var"; v: string }
  | { t: "num"; v: number; raw: string }
  | { t: "str"; parts: StringPart[] }
  | { t: "format"; v: string }
  | { t: "op"; v: string }
  | { t: "eof" };

/** Literal text, or an interpolated expression `\(...)` as its own tokens. */
export type StringPart = string | Token[];

const KEYWORDS = new Set([
  "as",
  "def",
  "module",
  "import",
  "include",
  "if",
  "then",
  "else",
  "elif",
  "reduce",
  "foreach",
  "end",
  "and",
  "or",
  "try",
  "catch",
  "label",
  "break",
]);

/** Longest first, so `//=` wins over `//` and `/`. */
const OPERATORS = [
  "?//",
  "//=",
  "|=",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "==",
  "!=",
  "<=",
  ">=",
  "//",
  "..",
  "|",
  ",",
  "+",
  "-",
  "*",
  "/",
  "%",
  "=",
  "<",
  ">",
  ".",
  "?",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ":",
  ";",
];

const IDENT = /[a-zA-Z_][a-zA-Z_0-9]*/y;
const NUMBER = /(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/y;
const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const at = lexInto(source, 0, tokens, false);
  if (at !== source.length) throw new Unsupported("unexpected )");
  tokens.push({ t: "eof" });
  return tokens;
}

/**
 * Lexes from `start` into `tokens`; inside an interpolation (`nested`) it stops at the `)` that
 * closes it and answers the position after it.
 */
function lexInto(source: string, start: number, tokens: Token[], nested: boolean): number {
  let at = start;
  let depth = 0;
  while (at < source.length) {
    const char = source[at] as string;
    if (char === " " || char === "\t" || char === "\n" || char === "\r") {
      at++;
      continue;
    }
    if (char === "#") {
      const end = source.indexOf("\n", at);
      const comment = end < 0 ? source.slice(at) : source.slice(at, end);
      if (/\\+$/.test(comment.replace(/\r$/, ""))) throw new Unsupported("continued comment");
      at = end < 0 ? source.length : end + 1;
      continue;
    }
    if (char === '"') {
      at = lexString(source, at + 1, tokens);
      continue;
    }
    if (char === "@") {
      IDENT.lastIndex = at + 1;
      const match = IDENT.exec(source);
      if (!match) throw new Unsupported("bad format");
      tokens.push({ t: "format", v: match[0] });
      at = IDENT.lastIndex;
      continue;
    }
    if (char === "$") {
      if (source.startsWith("$__loc__", at)) throw new Unsupported("$__loc__");
      IDENT.lastIndex = at + 1;
      const match = IDENT.exec(source);
      if (!match) throw new Unsupported("bad variable");
      tokens.push({ t: "var", v: match[0] });
      at = IDENT.lastIndex;
      continue;
    }
    NUMBER.lastIndex = at;
    const number =
      /[0-9]/.test(char) || (char === "." && /[0-9]/.test(source[at + 1] ?? ""))
        ? NUMBER.exec(source)
        : null;
    if (number) {
      tokens.push({ t: "num", v: Number(number[0]), raw: number[0] });
      at = NUMBER.lastIndex;
      continue;
    }
    if (char === ".") {
      IDENT.lastIndex = at + 1;
      const field = IDENT.exec(source);
      if (field && field.index === at + 1) {
        tokens.push({ t: "field", v: field[0] });
        at = IDENT.lastIndex;
        continue;
      }
    }
    IDENT.lastIndex = at;
    const ident = /[a-zA-Z_]/.test(char) ? IDENT.exec(source) : null;
    if (ident) {
      at = IDENT.lastIndex;
      if (source.startsWith("::", at)) throw new Unsupported("namespaced name");
      tokens.push(
        KEYWORDS.has(ident[0]) ? { t: "keyword", v: ident[0] } : { t: "ident", v: ident[0] },
      );
      continue;
    }
    const operator = OPERATORS.find((op) => source.startsWith(op, at));
    if (!operator) throw new Unsupported(`character ${char}`);
    if (nested && operator === "(") depth++;
    if (nested && operator === ")") {
      if (depth === 0) return at + 1;
      depth--;
    }
    tokens.push({ t: "op", v: operator });
    at += operator.length;
  }
  if (nested) throw new Unsupported("unterminated interpolation");
  return at;
}

/** A string literal from after its opening quote; answers the position after its closing one. */
function lexString(source: string, start: number, tokens: Token[]): number {
  const parts: StringPart[] = [];
  let text = "";
  let at = start;
  while (at < source.length) {
    const char = source[at] as string;
    if (char === '"') {
      if (text !== "" || parts.length === 0) parts.push(text);
      tokens.push({ t: "str", parts });
      return at + 1;
    }
    if (char !== "\\") {
      text += char;
      at++;
      continue;
    }
    const next = source[at + 1];
    if (next === undefined) break;
    if (next === "(") {
      if (text !== "") parts.push(text);
      text = "";
      const inner: Token[] = [];
      at = lexInto(source, at + 2, inner, true);
      inner.push({ t: "eof" });
      parts.push(inner);
      continue;
    }
    if (next === "u") {
      const hex = source.slice(at + 2, at + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new Unsupported("bad \\u escape");
      const unit = Number.parseInt(hex, 16);
      // Surrogates (paired or not) are left to jq.
      if (unit >= 0xd800 && unit <= 0xdfff) throw new Unsupported("surrogate escape");
      text += String.fromCharCode(unit);
      at += 6;
      continue;
    }
    const escaped = ESCAPES[next];
    if (escaped === undefined) throw new Unsupported("bad escape");
    text += escaped;
    at += 2;
  }
  throw new Unsupported("unterminated string");
}

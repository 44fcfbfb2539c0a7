// Tokens of the inline subset of jq, read as jq 1.8's lexer reads them. Anything else the lexer
// meets (string interpolation, formats, `$__loc__`, namespaced names, comments continued by a
// backslash) is `Unsupported`: the program then runs in jq, which also words real syntax errors.

export class Unsupported {
  constructor(readonly reason: string) {}
}

/** `v`: the name, operator, string value or number text. */
export interface Token {
  t: "ident" | "field" | "var" | "op" | "str" | "num" | "eof";
  v: string;
}

/** Longest first: `//=` and `?//` are read whole (and refused by the parser), never as `//`. */
const OPERATORS =
  "?// //= |= += -= *= /= %= == != <= >= // .. | , + - * / % = < > . ? ( ) [ ] { } : ;".split(" ");
const IDENT = /[a-zA-Z_][a-zA-Z_0-9]*/y;
const NUMBER = /(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/y;
const ESCAPES = ['"', "\\", "/", "b", "f", "n", "r", "t"];
const ESCAPED = ['"', "\\", "/", "\b", "\f", "\n", "\r", "\t"];

function sticky(pattern: RegExp, source: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(source)?.[0];
}

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < source.length) {
    const char = source[at] as string;
    if (char === " " || char === "\t" || char === "\n" || char === "\r") {
      at++;
    } else if (char === "#") {
      const end = source.indexOf("\n", at);
      const comment = source.slice(at, end < 0 ? source.length : end);
      if (/\\\r?$/.test(comment)) throw new Unsupported("continued comment");
      at = end < 0 ? source.length : end + 1;
    } else if (char === '"') {
      at = readString(source, at + 1, tokens);
    } else if (/[0-9]/.test(char) || (char === "." && /[0-9]/.test(source[at + 1] ?? ""))) {
      const raw = sticky(NUMBER, source, at) as string;
      // jq keeps a long literal's exact text; such programs are left to it.
      if (/\d{16}|[eE][+-]?\d{3}/.test(raw.replace(".", ""))) throw new Unsupported("long number");
      tokens.push({ t: "num", v: raw });
      at += raw.length;
    } else if (char === "$" || (char === "." && sticky(IDENT, source, at + 1))) {
      const name = sticky(IDENT, source, at + 1);
      if (!name || (char === "$" && name === "__loc__")) throw new Unsupported("variable");
      tokens.push({ t: char === "$" ? "var" : "field", v: name });
      at += 1 + name.length;
    } else if (/[a-zA-Z_]/.test(char)) {
      const name = sticky(IDENT, source, at) as string;
      at += name.length;
      if (source.startsWith("::", at)) throw new Unsupported("namespaced name");
      tokens.push({ t: "ident", v: name });
    } else {
      const operator = OPERATORS.find((op) => source.startsWith(op, at));
      if (!operator) throw new Unsupported(`character ${char}`);
      tokens.push({ t: "op", v: operator });
      at += operator.length;
    }
  }
  tokens.push({ t: "eof", v: "" });
  return tokens;
}

/** A string literal from after its opening quote; answers the position after its closing one. */
function readString(source: string, start: number, tokens: Token[]): number {
  let text = "";
  let at = start;
  while (at < source.length) {
    const char = source[at] as string;
    if (char === '"') {
      tokens.push({ t: "str", v: text });
      return at + 1;
    }
    if (char !== "\\") {
      text += char;
      at++;
      continue;
    }
    const next = source[at + 1] ?? "";
    if (next === "u") {
      const hex = source.slice(at + 2, at + 6);
      // Surrogates (paired or not) are left to jq.
      if (!/^[0-9a-fA-F]{4}$/.test(hex) || /^d[89a-f]/i.test(hex)) throw new Unsupported("\\u");
      text += String.fromCharCode(Number.parseInt(hex, 16));
      at += 6;
      continue;
    }
    // `\(` (interpolation) and unknown escapes are jq's.
    if (!ESCAPES.includes(next)) throw new Unsupported("escape");
    text += ESCAPED[ESCAPES.indexOf(next)];
    at += 2;
  }
  throw new Unsupported("unterminated string");
}

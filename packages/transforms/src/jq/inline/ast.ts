import type { Json } from "./values.js";

/** Binary operators that are functions of two values. */
export type BinaryOp = "+" | "-" | "*" | "/" | "%" | "==" | "!=" | "<" | "<=" | ">" | ">=";
/** `=`, `|=` and the arithmetic updates (`+=` is `+` applied as an update). */
export type AssignOp = "=" | "|=" | "//=" | "+=" | "-=" | "*=" | "/=" | "%=";

export type Pattern =
  | { k: "var"; name: string }
  | { k: "array"; items: Pattern[] }
  | { k: "object"; entries: { key: Ast; bindAs?: string; value?: Pattern }[] };

export type StringPiece = string | Ast;

export type Ast =
  | { k: "identity" }
  | { k: "recurseAll" }
  | { k: "literal"; value: Json; raw?: string }
  /** A string literal; interpolated pieces are written with `format` (`text` by default). */
  | { k: "string"; pieces: StringPiece[]; format: string }
  | { k: "format"; name: string }
  /** `opt`: `.a?`, `.[i]?`, `.[]?`: only this index's own error is suppressed, not the target's. */
  | { k: "index"; target: Ast; index: Ast; opt?: boolean }
  | { k: "slice"; target: Ast; from: Ast | null; to: Ast | null; opt?: boolean }
  | { k: "iterate"; target: Ast; opt?: boolean }
  | { k: "array"; body: Ast | null }
  | { k: "object"; entries: { key: Ast; value: Ast }[] }
  | { k: "negate"; body: Ast }
  | { k: "pipe"; left: Ast; right: Ast }
  | { k: "comma"; left: Ast; right: Ast }
  | { k: "binary"; op: BinaryOp; left: Ast; right: Ast }
  | { k: "and"; left: Ast; right: Ast }
  | { k: "or"; left: Ast; right: Ast }
  | { k: "alternative"; left: Ast; right: Ast }
  | { k: "assign"; op: AssignOp; left: Ast; right: Ast }
  | { k: "if"; cond: Ast; then: Ast; else: Ast | null }
  /** `try body catch handler`; `body?` and `try body` have no handler. */
  | { k: "try"; body: Ast; handler: Ast | null }
  | { k: "reduce"; source: Ast; pattern: Pattern; init: Ast; update: Ast }
  | { k: "foreach"; source: Ast; pattern: Pattern; init: Ast; update: Ast; extract: Ast | null }
  | { k: "bind"; source: Ast; pattern: Pattern; body: Ast }
  | { k: "var"; name: string }
  | { k: "call"; name: string; args: Ast[] };

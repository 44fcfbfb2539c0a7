/** Binary operators that are functions of two values. */
export type BinaryOp = "+" | "-" | "*" | "/" | "%" | "==" | "!=" | "<" | "<=" | ">" | ">=";

/** Calls of the subset: `empty not length keys` and `select(f) map(f)`. */
export type Builtin = "empty" | "not" | "length" | "keys" | "select" | "map";

export type Ast =
  | { k: "identity" }
  | { k: "literal"; value: null | boolean | number | string }
  /** `opt`: `.a?`, `.[i]?`, `.[]?` suppress this index's own error only, not the target's. */
  | { k: "index"; target: Ast; index: Ast; opt: boolean }
  | { k: "iterate"; target: Ast; opt: boolean }
  | { k: "array"; body: Ast | null }
  | { k: "object"; entries: { key: Ast; value: Ast }[] }
  | { k: "negate"; body: Ast }
  | { k: "pipe" | "comma" | "and" | "or" | "alternative"; left: Ast; right: Ast }
  | { k: "binary"; op: BinaryOp; left: Ast; right: Ast }
  /** `source as $name | body` */
  | { k: "bind"; source: Ast; name: string; body: Ast }
  | { k: "var"; name: string }
  | { k: "call"; name: Builtin; arg: Ast | null };

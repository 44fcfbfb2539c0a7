import type { SchemaField } from "../families/definitions.js";

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Strict mode: which payload fields are "listed". For every object key of the payload, at any
 * depth, with path P (dot notation, array items by index):
 * - P is listed (a field's `path` equals P): allowed. When other listed paths lie beneath P
 *   (`customer` and `customer.id` both listed) its content is checked the same way; otherwise its
 *   content is free (listing `customer` as an object accepts whatever it holds).
 * - P is an ancestor of a listed path (`customer` when only `customer.id` is listed): allowed as a
 *   container, and its content is checked.
 * - otherwise: rejected, `P: not allowed (strict mode)`.
 * Array items are not fields: an item is checked only when a listed path names its index
 * (`items.0.sku` checks the keys of item 0); other items are free. The payload's root itself is
 * never rejected, whatever its type.
 */
export function checkStrictMode(fields: readonly SchemaField[], payload: unknown): string[] {
  const listed = new Set(fields.map((field) => field.path));
  const ancestors = new Set<string>();
  for (const path of listed) {
    const segments = path.split(".");
    for (let i = 1; i < segments.length; i++) ancestors.add(segments.slice(0, i).join("."));
  }
  const errors: string[] = [];
  const visit = (value: unknown, prefix: string) => {
    const join = (key: string) => (prefix === "" ? key : `${prefix}.${key}`);
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        const path = join(String(index));
        if (ancestors.has(path)) visit(item, path);
      });
      return;
    }
    if (!isObject(value)) return;
    for (const [key, child] of Object.entries(value)) {
      const path = join(key);
      if (ancestors.has(path)) visit(child, path);
      else if (!listed.has(path)) errors.push(`${path}: not allowed (strict mode)`);
    }
  };
  visit(payload, "");
  return errors;
}

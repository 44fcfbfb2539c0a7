// @ts-check
// Turns an ES module transform into the body of a strict function that returns the module's
// default export, so it can be compiled once per warm context and its top level run on every call
// like a fresh module evaluation, without instantiating a module per call (the costliest part of a
// module call). Only modules whose meaning is the same as such a function body are rewritten;
// anything else (imports, re-exports, import.meta, dynamic import, top-level await, `arguments` at
// the top level, a hashbang) answers undefined and stays a real module.
import { parse } from "acorn";

/** The binding the rewritten body returns; modules that mention it are not rewritten. */
export const DEFAULT_BINDING = "__hookflow_default";

/**
 * @typedef {{ start: number, end: number, text: string }} Edit
 * @typedef {{ type: string, start: number, end: number, [key: string]: unknown }} AstNode
 */

/**
 * The function body for `code`, or undefined when the module must stay a module. The body ends by
 * returning the default export (undefined when there is none). Line breaks are kept where they
 * were, so error positions still point at the user's lines.
 * @param {string} code
 * @returns {string | undefined}
 */
export function moduleAsFunctionBody(code) {
  if (code.startsWith("#!") || code.includes(DEFAULT_BINDING)) return undefined;
  /** @type {AstNode} */
  let program;
  try {
    program = /** @type {AstNode} */ (
      /** @type {unknown} */ (
        parse(code, { ecmaVersion: "latest", sourceType: "module", preserveParens: true })
      )
    );
  } catch {
    // The module compiler reports the syntax error in its own words.
    return undefined;
  }
  if (!topLevelFitsAFunction(program)) return undefined;
  /** @type {Edit[]} */
  const edits = [];
  /** @type {string | undefined} */
  let defaultLocal;
  for (const statement of /** @type {AstNode[]} */ (program.body)) {
    switch (statement.type) {
      case "ImportDeclaration":
      case "ExportAllDeclaration":
        return undefined;
      case "ExportNamedDeclaration": {
        if (statement.source) return undefined;
        const declaration = /** @type {AstNode | null} */ (statement.declaration);
        if (declaration) {
          // `export const x = 1` -> `const x = 1`
          edits.push({ start: statement.start, end: declaration.start, text: "" });
          break;
        }
        for (const specifier of /** @type {AstNode[]} */ (statement.specifiers)) {
          const local = /** @type {AstNode & { name?: string }} */ (specifier.local);
          if (exportedName(specifier) === "default") {
            if (local.type !== "Identifier" || typeof local.name !== "string") return undefined;
            defaultLocal = local.name;
          }
        }
        edits.push({ start: statement.start, end: statement.end, text: ";" });
        break;
      }
      case "ExportDefaultDeclaration": {
        const declaration = /** @type {AstNode & { id?: { name: string } | null }} */ (
          statement.declaration
        );
        const named =
          (declaration.type === "FunctionDeclaration" || declaration.type === "ClassDeclaration") &&
          declaration.id;
        if (named && declaration.id) {
          // `export default function transform() {}` keeps its hoisted declaration.
          edits.push({ start: statement.start, end: declaration.start, text: "" });
          defaultLocal = declaration.id.name;
        } else {
          // An expression or an anonymous declaration: evaluated where it stands. A property
          // named `default` gives an anonymous function or class the name a module gives it.
          edits.push({
            start: statement.start,
            end: declaration.start,
            text: `const ${DEFAULT_BINDING} = ({ default: (`,
          });
          edits.push({ start: declaration.end, end: declaration.end, text: ") }).default;" });
          defaultLocal = DEFAULT_BINDING;
        }
        break;
      }
      default:
        break;
    }
  }
  let body = code;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    // Keep the line breaks of what is removed, so later lines keep their numbers.
    const removed = body.slice(edit.start, edit.end).replace(/[^\n]/g, "");
    body = body.slice(0, edit.start) + edit.text + removed + body.slice(edit.end);
  }
  return `${body}\n;return ${defaultLocal ?? "undefined"};`;
}

/** @param {AstNode} specifier */
function exportedName(specifier) {
  const exported = /** @type {AstNode & { name?: string, value?: unknown }} */ (specifier.exported);
  return exported.type === "Identifier" ? exported.name : exported.value;
}

/**
 * False when the module's top level uses something a function body would mean differently:
 * `await` (top-level await), `arguments`, `import.meta` or `import()`.
 * @param {AstNode} program
 */
function topLevelFitsAFunction(program) {
  let fits = true;
  /** @param {unknown} value @param {boolean} inFunction @param {boolean} inNonArrow */
  const visit = (value, inFunction, inNonArrow) => {
    if (!fits || value === null || typeof value !== "object") return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, inFunction, inNonArrow);
      return;
    }
    const node = /** @type {AstNode} */ (value);
    if (typeof node.type !== "string") return;
    switch (node.type) {
      case "ImportExpression":
        fits = false;
        return;
      case "MetaProperty":
        if (/** @type {{ name: string }} */ (node.meta).name === "import") fits = false;
        return;
      case "AwaitExpression":
        if (!inFunction) fits = false;
        break;
      case "ForOfStatement":
        if (node.await && !inFunction) fits = false;
        break;
      case "Identifier":
        if (node.name === "arguments" && !inNonArrow) fits = false;
        return;
      default:
        break;
    }
    const isFunction =
      node.type === "FunctionDeclaration" ||
      node.type === "FunctionExpression" ||
      node.type === "ArrowFunctionExpression";
    const childInFunction = inFunction || isFunction;
    const childInNonArrow = inNonArrow || (isFunction && node.type !== "ArrowFunctionExpression");
    for (const key of Object.keys(node)) {
      if (key === "type" || key === "start" || key === "end") continue;
      // A class field initializer or static block is its own function-like scope.
      const classScope =
        node.type === "PropertyDefinition" || node.type === "StaticBlock"
          ? key === "value" || key === "body"
          : false;
      visit(node[key], childInFunction || classScope, childInNonArrow || classScope);
    }
  };
  visit(program.body, false, false);
  return fits;
}

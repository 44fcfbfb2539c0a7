import Handlebars from "handlebars";
import { separateClosingBraces } from "./separate-closing-braces.js";

/** The helper every `{{…}}` output is routed through (see `createOutputHelpers`). */
export const OUTPUT_HELPER = "__hookflow_out";

/**
 * How `{{value}}` is written: inside a JSON template (`json`) as the content of a JSON string, so
 * quotes, backslashes and newlines in the payload never break the document; elsewhere (`text`)
 * as is. `{{{value}}}` is always written as is (`raw`).
 */
export type OutputKind = "json" | "text" | "raw";

export type PreparedTemplate =
  | { ok: true; program: hbs.AST.Program; jsonMode: boolean }
  | { ok: false; error: string };

const JSON_START = /^[[{"]/;

/**
 * Parses a template, refuses what transforms do not support (partials, decorators) and routes
 * every output expression through the output helper, which escapes and counts what is written.
 * The AST handed to `compile` is the parser's own plus fixed helper nodes, never user-built.
 */
export function prepareTemplate(source: string): PreparedTemplate {
  let program: hbs.AST.Program;
  try {
    program = Handlebars.parse(separateClosingBraces(source));
  } catch (error) {
    return { ok: false, error: `handlebars syntax error: ${describeError(error)}` };
  }
  const firstContent = findFirstContent(program);
  const jsonMode = firstContent !== undefined && JSON_START.test(firstContent);
  const refused = rewriteProgram(program, jsonMode ? "json" : "text");
  if (refused) return { ok: false, error: refused };
  return { ok: true, program, jsonMode };
}

function findFirstContent(program: hbs.AST.Program | undefined): string | undefined {
  for (const node of program?.body ?? []) {
    if (node.type === "ContentStatement") {
      const text = (node as hbs.AST.ContentStatement).value.trimStart();
      if (text !== "") return text;
    } else if (node.type === "BlockStatement") {
      const block = node as hbs.AST.BlockStatement;
      const found = findFirstContent(block.program) ?? findFirstContent(block.inverse);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** Rewrites in place; returns a message when the template uses something refused. */
function rewriteProgram(program: hbs.AST.Program | undefined, kind: OutputKind): string | null {
  if (!program) return null;
  const body = program.body;
  for (let i = 0; i < body.length; i++) {
    const node = body[i] as hbs.AST.Node;
    switch (node.type) {
      case "MustacheStatement":
        body[i] = routeThroughOutputHelper(node as hbs.AST.MustacheStatement, kind);
        break;
      case "BlockStatement": {
        const block = node as hbs.AST.BlockStatement;
        const refused = rewriteProgram(block.program, kind) ?? rewriteProgram(block.inverse, kind);
        if (refused) return refused;
        break;
      }
      case "PartialStatement":
      case "PartialBlockStatement":
        return `handlebars partials are not supported in transforms (line ${node.loc.start.line})`;
      case "Decorator":
      case "DecoratorBlock":
        return `handlebars decorators are not supported in transforms (line ${node.loc.start.line})`;
      default:
        break;
    }
  }
  return null;
}

function routeThroughOutputHelper(
  node: hbs.AST.MustacheStatement,
  kind: OutputKind,
): hbs.AST.MustacheStatement {
  const loc = node.loc;
  const callsHelper = node.params.length > 0 || (node.hash?.pairs.length ?? 0) > 0;
  const value: hbs.AST.Expression = callsHelper
    ? ({
        type: "SubExpression",
        path: node.path,
        params: node.params,
        hash: node.hash,
        loc,
      } as hbs.AST.SubExpression)
    : node.path;
  const outputKind: OutputKind = node.escaped ? kind : "raw";
  const kindLiteral = { type: "StringLiteral", value: outputKind, original: outputKind, loc };
  const helperPath = {
    type: "PathExpression",
    data: false,
    depth: 0,
    parts: [OUTPUT_HELPER],
    original: OUTPUT_HELPER,
    loc,
  };
  return {
    ...node,
    path: helperPath as hbs.AST.PathExpression,
    params: [value, kindLiteral as hbs.AST.StringLiteral],
    hash: undefined as unknown as hbs.AST.Hash,
    escaped: false,
  };
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message.replace(/\s+/g, " ").trim();
  return String(error);
}

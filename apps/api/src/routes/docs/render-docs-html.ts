import { escapeHtml } from "@hookflow/mail";
import { HTTP_METHODS, type HttpMethod, type OpenApiDocument } from "./openapi-document.js";

type PathItem = NonNullable<OpenApiDocument["paths"]>[string];
type Operation = NonNullable<PathItem[HttpMethod]>;

interface Entry {
  method: HttpMethod;
  path: string;
  operation: Operation;
}

function anchor(text: string): string {
  return text.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

/** Pretty-printed JSON with `$ref`s turned into links to the schema section. */
function jsonBlock(value: unknown): string {
  const html = escapeHtml(JSON.stringify(value, null, 2) ?? "null").replace(
    /&quot;#\/components\/schemas\/([A-Za-z0-9_.-]+)&quot;/g,
    (_match, name: string) =>
      `<a href="#schema-${anchor(name)}">&quot;#/components/schemas/${name}&quot;</a>`,
  );
  return `<pre>${html}</pre>`;
}

function isReference(value: object): value is { $ref: string } {
  return "$ref" in value;
}

function parametersHtml(operation: Operation): string {
  const params = operation.parameters ?? [];
  if (params.length === 0) return "";
  const rows = params
    .map((param) => {
      if (isReference(param)) return `<tr><td colspan="4">${escapeHtml(param.$ref)}</td></tr>`;
      return `<tr><td><code>${escapeHtml(param.name)}</code></td><td>${escapeHtml(param.in)}</td><td>${
        param.required ? "yes" : "no"
      }</td><td>${escapeHtml(param.description ?? "")}${param.schema ? jsonBlock(param.schema) : ""}</td></tr>`;
    })
    .join("");
  return `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Required</th><th>Schema</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function contentHtml(content: Record<string, { schema?: unknown }> | undefined): string {
  return Object.entries(content ?? {})
    .map(
      ([type, media]) =>
        `<p class="media">${escapeHtml(type)}</p>${media.schema === undefined ? "" : jsonBlock(media.schema)}`,
    )
    .join("");
}

function requestBodyHtml(operation: Operation): string {
  const body = operation.requestBody;
  if (!body) return "";
  if (isReference(body)) return `<h4>Request body</h4>${jsonBlock(body)}`;
  const required = body.required ? " (required)" : "";
  return `<h4>Request body${required}</h4>${contentHtml(body.content)}`;
}

function responsesHtml(operation: Operation): string {
  const items = Object.entries(operation.responses ?? {})
    .map(([status, response]) => {
      if (isReference(response)) return `<h5>${escapeHtml(status)}</h5>${jsonBlock(response)}`;
      const headers = response.headers
        ? `<p>Headers: ${Object.keys(response.headers)
            .map((h) => `<code>${escapeHtml(h)}</code>`)
            .join(", ")}</p>`
        : "";
      return `<h5><span class="status">${escapeHtml(status)}</span> ${escapeHtml(
        response.description ?? "",
      )}</h5>${headers}${contentHtml(response.content)}`;
    })
    .join("");
  return items ? `<h4>Responses</h4>${items}` : "";
}

function authHtml(operation: Operation): string {
  const security = operation.security;
  if (security && security.length === 0) return `<p class="auth">Public: no credential</p>`;
  const names = (security ?? []).flatMap((requirement) => Object.keys(requirement));
  return `<p class="auth">Auth: ${escapeHtml(names.join(", ") || "as the document default")} (Authorization: Bearer)</p>`;
}

function operationHtml(entry: Entry): string {
  const { method, path, operation } = entry;
  const id = `op-${method}-${anchor(path)}`;
  return `<article class="op" id="${id}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code> ${escapeHtml(operation.summary ?? "")}</h3>
${operation.description ? `<p>${escapeHtml(operation.description)}</p>` : ""}
${authHtml(operation)}${parametersHtml(operation)}${requestBodyHtml(operation)}${responsesHtml(operation)}
</article>`;
}

function groupByTag(document: OpenApiDocument): Map<string, Entry[]> {
  const groups = new Map<string, Entry[]>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? "Other";
      const list = groups.get(tag) ?? [];
      list.push({ method, path, operation });
      groups.set(tag, list);
    }
  }
  return new Map([...groups.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

const STYLE = `
body{font:15px/1.5 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:#1d2433;background:#f7f8fa}
header,main,nav{max-width:1000px;margin:0 auto;padding:0 24px}
header{padding-top:24px}h1 small{font-size:.5em;color:#667}
nav ul{columns:2;padding-left:18px}
section.tag{margin-top:32px}
article.op{background:#fff;border:1px solid #dde1e8;border-radius:8px;padding:4px 16px 12px;margin:16px 0}
.method{display:inline-block;min-width:64px;text-align:center;border-radius:4px;color:#fff;font-size:.8em;padding:2px 6px}
.get{background:#2f7d32}.post{background:#1565c0}.patch{background:#8e5b00}.put{background:#6a1b9a}.delete{background:#b71c1c}
.head,.options{background:#555}
pre{background:#f1f3f6;border-radius:6px;padding:10px;overflow:auto;font-size:13px}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #e3e6eb;text-align:left;padding:4px 8px;vertical-align:top}
.auth,.media{color:#556;font-size:.9em}.status{font-family:monospace}
`;

/** A self-contained, script-free HTML rendering of the OpenAPI document. */
export function renderDocsHtml(document: OpenApiDocument): string {
  const groups = groupByTag(document);
  const nav = [...groups.entries()]
    .map(
      ([tag, entries]) =>
        `<li><a href="#tag-${anchor(tag)}">${escapeHtml(tag)}</a> (${entries.length})</li>`,
    )
    .join("");
  const sections = [...groups.entries()]
    .map(
      ([tag, entries]) =>
        `<section class="tag" id="tag-${anchor(tag)}"><h2>${escapeHtml(tag)}</h2>${entries
          .map(operationHtml)
          .join("\n")}</section>`,
    )
    .join("\n");
  const schemas = Object.entries(document.components?.schemas ?? {})
    .map(
      ([name, schema]) =>
        `<section id="schema-${anchor(name)}"><h3>${escapeHtml(name)}</h3>${jsonBlock(schema)}</section>`,
    )
    .join("\n");
  const info = document.info;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} API reference</title><style>${STYLE}</style></head>
<body><header><h1>${escapeHtml(info.title)} API <small>${escapeHtml(info.version)}</small></h1>
${info.description ? `<p>${escapeHtml(info.description)}</p>` : ""}
<p>Machine-readable document: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI ${escapeHtml(document.openapi)})</p></header>
<nav><h2>Contents</h2><ul>${nav}${schemas ? `<li><a href="#schemas">Schemas</a></li>` : ""}</ul></nav>
<main>${sections}${schemas ? `<section class="tag" id="schemas"><h2>Schemas</h2>${schemas}</section>` : ""}</main>
</body></html>`;
}

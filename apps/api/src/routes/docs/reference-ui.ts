import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * The API reference page: Swagger UI from its npm package (`swagger-ui-dist`), served by the api
 * itself: no CDN, no inline script. The page loads the bundle, its stylesheet and a small
 * initializer from `/api/docs/assets/`; the initializer reads `/api/openapi.json` and points
 * "Try it out" at the origin the page was loaded from.
 */

const require = createRequire(import.meta.url);
const DIST = dirname(require.resolve("swagger-ui-dist/package.json"));

/** The assets the page uses, by the name it asks for them. */
const FILES: Record<string, { file: string; type: string }> = {
  "swagger-ui-bundle.js": {
    file: join(DIST, "swagger-ui-bundle.js"),
    type: "text/javascript; charset=utf-8",
  },
  "swagger-ui.css": { file: join(DIST, "swagger-ui.css"), type: "text/css; charset=utf-8" },
  "favicon-32x32.png": { file: join(DIST, "favicon-32x32.png"), type: "image/png" },
};

/** Runs in the browser: the page's only script of its own. */
const INITIALIZER = `"use strict";
fetch("/api/openapi.json", { headers: { accept: "application/json" } })
  .then(function (response) { return response.json(); })
  .then(function (spec) {
    spec.servers = [{ url: window.location.origin, description: "This Hookflow instance" }];
    window.ui = SwaggerUIBundle({
      spec: spec,
      dom_id: "#swagger-ui",
      deepLinking: true,
      displayOperationId: true,
      displayRequestDuration: true,
      filter: true,
      docExpansion: "none",
      tryItOutEnabled: false,
      persistAuthorization: false,
      defaultModelsExpandDepth: 0,
      validatorUrl: null
    });
  })
  .catch(function (error) {
    document.getElementById("swagger-ui").textContent =
      "Could not load /api/openapi.json: " + error;
  });
`;

export const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Hookflow API reference</title>
<link rel="icon" type="image/png" href="/api/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
<noscript>The reference needs JavaScript. The document itself is at
<a href="/api/openapi.json">/api/openapi.json</a>.</noscript>
<div id="swagger-ui"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/assets/initializer.js"></script>
</body>
</html>
`;

/**
 * What the page may do: its own scripts and styles (Swagger UI sets inline styles), images from
 * itself or data URLs, requests to its own origin (the document and "Try it out").
 */
export const REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export interface ReferenceAsset {
  body: Uint8Array<ArrayBuffer> | string;
  type: string;
}

const cache = new Map<string, Promise<ReferenceAsset>>();

/** A Swagger UI asset or the initializer by name; undefined for anything else. */
export function referenceAsset(name: string): Promise<ReferenceAsset> | undefined {
  if (name === "initializer.js") {
    return Promise.resolve({ body: INITIALIZER, type: "text/javascript; charset=utf-8" });
  }
  const entry = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
  if (!entry) return undefined;
  let loaded = cache.get(name);
  if (!loaded) {
    loaded = readFile(entry.file).then((body) => ({
      body: new Uint8Array(body),
      type: entry.type,
    }));
    loaded.catch(() => cache.delete(name));
    cache.set(name, loaded);
  }
  return loaded;
}

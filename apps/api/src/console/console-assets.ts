import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import { gzipSync } from "node:zlib";

/** One file of the built console, held in memory with its gzip form when that is smaller. */
export interface ConsoleAsset {
  body: Buffer;
  gzip: Buffer | null;
  contentType: string;
  etag: string;
  /** Vite's content-hashed files under `assets/`: cached for a year, never revalidated. */
  immutable: boolean;
}

/** The console as the api serves it, or why it cannot. */
export type ConsoleAssets =
  | { state: "ready"; dir: string; files: Map<string, ConsoleAsset>; index: ConsoleAsset }
  | { state: "missing"; dir: string; reason: string }
  | { state: "off" };

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".webmanifest": "application/manifest+json",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json; charset=utf-8",
};

const COMPRESSIBLE = /^(text\/|application\/(json|manifest)|image\/svg)/;
/** The console is a few hundred KB; anything far larger in the folder is not ours to serve. */
const MAX_FILES = 2000;

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) out.push(path);
      if (out.length > MAX_FILES) throw new Error(`${dir} holds more than ${MAX_FILES} files`);
    }
  };
  walk(dir);
  return out;
}

function toAsset(path: string, urlPath: string): ConsoleAsset {
  const body = readFileSync(path);
  const contentType = TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
  const zipped = COMPRESSIBLE.test(contentType) && body.length > 512 ? gzipSync(body) : null;
  return {
    body,
    gzip: zipped && zipped.length < body.length ? zipped : null,
    contentType,
    etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`,
    immutable: urlPath.startsWith("/assets/"),
  };
}

/**
 * Reads the built console (`index.html` and its assets) into memory once, at start: requests
 * never touch the file system, so no path can reach outside the folder. `dir` null means the
 * console is switched off (`DASHBOARD_DIR=off`).
 */
export function loadConsoleAssets(dir: string | null): ConsoleAssets {
  if (dir === null) return { state: "off" };
  const indexPath = join(dir, "index.html");
  if (!existsSync(indexPath) || !statSync(indexPath).isFile()) {
    return { state: "missing", dir, reason: `${indexPath} does not exist` };
  }
  const files = new Map<string, ConsoleAsset>();
  for (const path of listFiles(dir)) {
    const urlPath = `/${relative(dir, path).split(sep).join("/")}`;
    if (urlPath.endsWith(".map")) continue;
    files.set(urlPath, toAsset(path, urlPath));
  }
  const index = files.get("/index.html");
  if (!index) return { state: "missing", dir, reason: `${indexPath} could not be read` };
  return { state: "ready", dir, files, index };
}

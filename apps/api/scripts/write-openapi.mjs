// Writes the api's OpenAPI document to packages/sdk/openapi.json, without a server, database or
// Redis (see src/routes/docs/static-openapi-document.ts). Run through `pnpm openapi` at the
// repository root, which builds first and regenerates the SDK's types afterwards.
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import {
  buildStaticOpenApiDocument,
  formatOpenApiFile,
} from "../dist/routes/docs/static-openapi-document.js";

const target = fileURLToPath(new URL("../../../packages/sdk/openapi.json", import.meta.url));
await writeFile(target, formatOpenApiFile(await buildStaticOpenApiDocument()));
process.stdout.write(`wrote ${target}\n`);

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { RawEnv } from "./env-schema.js";

/** The README's configuration table: variable -> its Default cell. */
function readmeDefaults(): Map<string, string> {
  const readme = readFileSync(
    fileURLToPath(new URL("../../../README.md", import.meta.url)),
    "utf8",
  );
  const rows = new Map<string, string>();
  for (const line of readme.split("\n")) {
    const match = /^\|\s*`([A-Z_]+)`\s*\|([^|]*)\|/.exec(line);
    if (match?.[1] && match[2] !== undefined) rows.set(match[1], match[2].trim());
  }
  return rows;
}

describe("README configuration table", () => {
  const rows = readmeDefaults();
  const defaults = RawEnv.parse({});

  it("lists every variable the schema reads, and no other", () => {
    expect([...rows.keys()].sort()).toEqual(Object.keys(RawEnv.shape).sort());
  });

  it("gives each variable the schema's default", () => {
    for (const [name, value] of Object.entries(defaults)) {
      if (value === undefined) continue;
      const cell = rows.get(name) ?? "";
      expect({ name, cell: cell.includes(`\`${String(value)}\``) }).toEqual({ name, cell: true });
    }
  });
});

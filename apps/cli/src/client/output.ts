import { HookflowConnectionError, HookflowError } from "@hookflow/sdk";
import type { ClientSettings } from "./settings.js";

export interface Io {
  stdout: { write: (text: string) => unknown };
  stderr: { write: (text: string) => unknown };
}

/** Thrown for bad command-line input: exit code 2, with the command's usage. */
export class ClientUsageError extends Error {}

export function printJson(io: Io, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Left-aligned columns with two spaces between them; empty lists say so. */
export function printTable(io: Io, headers: string[], rows: string[][]): void {
  if (rows.length === 0) {
    io.stdout.write("(none)\n");
    return;
  }
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...rows.map((row) => (row[i] ?? "").length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  io.stdout.write(`${[line(headers), ...rows.map(line)].join("\n")}\n`);
}

/** One message per failure a user can act on; exit code 1. */
export function describeFailure(error: unknown, settings: ClientSettings): string {
  if (error instanceof HookflowConnectionError) {
    return error.timedOut
      ? `${settings.url} did not answer in time (${error.message})`
      : `${error.message}; is HOOKFLOW_URL right? (now ${settings.url})`;
  }
  if (error instanceof HookflowError) {
    const base = `${error.statusCode} ${error.error}: ${error.message}`;
    switch (error.statusCode) {
      case 401:
        return settings.tokenSource === "HOOKFLOW_API_KEY"
          ? `${base} (check HOOKFLOW_API_KEY)`
          : `${base} (run \`hookflow login\` again, or set HOOKFLOW_API_KEY)`;
      case 403:
        return `${base} (a key needs the scope named; organization resources need X-Organization-Id)`;
      default:
        return base;
    }
  }
  return error instanceof Error ? error.message : String(error);
}

import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { exceedsBytes, outputTooLargeMessage } from "../output.js";
import type { TransformOutcome } from "../types.js";
import type { SandboxCallResult } from "./sandbox-messages.js";

const HOST_PATH = fileURLToPath(new URL("./sandbox-host.mjs", import.meta.url));
/** isolated-vm needs --no-node-snapshot (Node 20 and later); the host heap only holds messages. */
const HOST_EXEC_ARGV = ["--no-node-snapshot", "--max-old-space-size=256"];

/**
 * Starts one sandbox host process (`sandbox-host.mjs`) with the pool's limits as its argument.
 * It is unref'd: an idle pool never keeps its parent alive.
 */
export function startSandboxProcess(
  hostConfig: string,
  on: { message: (raw: unknown) => void; exit: () => void },
): ChildProcess {
  const child = fork(HOST_PATH, [hostConfig], {
    execArgv: HOST_EXEC_ARGV,
    env: {},
    // JSON: cheaper than "advanced" for these messages (strings, numbers, flags), both ways.
    serialization: "json",
    stdio: ["ignore", "ignore", "ignore", "ipc"],
  });
  child.unref();
  child.channel?.unref();
  child.on("message", on.message);
  child.on("error", on.exit);
  child.on("exit", on.exit);
  return child;
}

/** A sandbox result as the transform's outcome: JSON parsed here, never trusted as text. */
export function outcomeOf(result: SandboxCallResult, maxOutputBytes: number): TransformOutcome {
  if (!result.ok) return { ok: false, error: result.error };
  if (exceedsBytes(result.json, maxOutputBytes)) {
    return { ok: false, error: outputTooLargeMessage(maxOutputBytes) };
  }
  try {
    // The text is only parsed: user code can replace JSON.stringify inside its context, so
    // the sandbox's text is never passed on as is (the host serializes the value itself).
    return { ok: true, output: JSON.parse(result.json) };
  } catch {
    return { ok: false, error: "the transform result is not JSON" };
  }
}

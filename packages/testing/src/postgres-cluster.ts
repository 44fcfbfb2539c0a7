import { spawn, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./child-app.js";

export interface PostgresCluster {
  port: number;
  /** Connection URL of `database` on this cluster (user postgres, trust auth). */
  url: (database: string) => string;
  running: () => boolean;
  start: () => Promise<void>;
  /** `immediate` is a crash (no checkpoint, clients cut at once); `fast` a clean stop. */
  stop: (mode?: "fast" | "immediate") => Promise<void>;
  /** Stops it and deletes its data directory. */
  destroy: () => Promise<void>;
  /** The server log. */
  log: () => string;
}

interface RunAs {
  uid: number;
  gid: number;
}

/** Where `initdb` and `pg_ctl` live: `pg_config --bindir`, else the newest Debian install. */
function findBinDir(): string {
  const fromPgConfig = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" });
  const candidates = [fromPgConfig.status === 0 ? fromPgConfig.stdout.trim() : ""];
  if (existsSync("/usr/lib/postgresql")) {
    const versions = readdirSync("/usr/lib/postgresql")
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => `/usr/lib/postgresql/${version}/bin`));
  }
  const found = candidates.find((dir) => dir !== "" && existsSync(join(dir, "initdb")));
  if (!found)
    throw new Error("initdb not found (tried pg_config --bindir and /usr/lib/postgresql)");
  return found;
}

/** Postgres refuses to run as root: as root, the cluster belongs to the `postgres` user. */
function runAsUser(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const entry = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((line) => line.startsWith("postgres:"));
  const [, , uid, gid] = entry?.split(":") ?? [];
  if (uid === undefined || gid === undefined) {
    throw new Error("running as root and there is no postgres user to own the test cluster");
  }
  return { uid: Number(uid), gid: Number(gid) };
}

function run(command: string, args: string[], runAs: RunAs | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ["ignore", "pipe", "pipe"],
      ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C" },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("error", reject);
    // "exit", not "close": the server pg_ctl starts may keep inherited descriptors open.
    child.once("exit", (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${command} ${args.join(" ")} exited ${code}:\n${output}`)),
    );
  });
}

/** Clusters still running when the test process exits are stopped with it. */
const live = new Set<() => void>();
let exitHooked = false;
function stopLiveOnExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.once("exit", () => {
    for (const stop of live) stop();
  });
}

/**
 * A Postgres cluster of a test's own (initdb in a temporary directory, trust auth, TCP on a
 * spare loopback port), started and stopped with `pg_ctl`, so a test can take its database down
 * and bring it back without touching the machine's shared server. As root, the directory is
 * handed to the `postgres` user and the tools run as that user. `fsync` is off (a stopped or
 * killed server loses nothing, only a machine crash would), but commits stay synchronous: with
 * `synchronous_commit=off` an immediate stop would drop transactions that were acknowledged.
 */
export async function createPostgresCluster(): Promise<PostgresCluster> {
  const bin = findBinDir();
  const runAs = runAsUser();
  const base = mkdtempSync(join(tmpdir(), "hf-pg-"));
  if (runAs) chownSync(base, runAs.uid, runAs.gid);
  const data = join(base, "data");
  const logFile = join(base, "server.log");
  const port = await freePort();
  let up = false;

  await run(
    join(bin, "initdb"),
    ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"],
    runAs,
  );
  const options = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    "-c unix_socket_directories=''",
    "-c fsync=off",
    "-c full_page_writes=off",
    "-c max_connections=100",
  ].join(" ");
  const pgCtl = join(bin, "pg_ctl");
  const stopNow = () => {
    spawnSync(pgCtl, ["-D", data, "-m", "immediate", "-w", "stop"], {
      stdio: "ignore",
      ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
    });
  };

  const start = async () => {
    await run(pgCtl, ["-D", data, "-o", options, "-l", logFile, "-w", "-t", "30", "start"], runAs);
    up = true;
    stopLiveOnExit();
    live.add(stopNow);
  };
  const stop = async (mode: "fast" | "immediate" = "fast") => {
    await run(pgCtl, ["-D", data, "-m", mode, "-w", "-t", "30", "stop"], runAs);
    up = false;
    live.delete(stopNow);
  };

  try {
    await start();
  } catch (error) {
    rmSync(base, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    running: () => up,
    start,
    stop,
    destroy: async () => {
      if (up) await stop("immediate").catch(() => stopNow());
      rmSync(base, { recursive: true, force: true });
    },
    log: () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : ""),
  };
}

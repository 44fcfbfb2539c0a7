// The kernel's writeback settings of the machine the bench runs on (Linux): when the page cache's
// dirty data is written out decides how long a commit's WAL flush can wait behind it (README,
// "Postgres settings"; docs/benchmarks.md, "What backend_flush_after leaves dirty").
import { readFileSync } from "node:fs";

const read = (name) => {
  try {
    return Number(readFileSync(`/proc/sys/vm/${name}`, "utf8").trim());
  } catch {
    return null;
  }
};

/** `{ backgroundBytes, backgroundRatio, expireSeconds }`, or null off Linux. */
export function hostWriteback() {
  const backgroundBytes = read("dirty_background_bytes");
  const backgroundRatio = read("dirty_background_ratio");
  const expire = read("dirty_expire_centisecs");
  if (backgroundBytes === null || backgroundRatio === null || expire === null) return null;
  return { backgroundBytes, backgroundRatio, expireSeconds: expire / 100 };
}

/** One line for the bench's header. */
export function describeWriteback(w) {
  if (!w) return "host writeback: unknown (not Linux)";
  const threshold =
    w.backgroundBytes > 0
      ? `${Math.round(w.backgroundBytes / 2 ** 20)} MB`
      : `${w.backgroundRatio} % of memory`;
  const advice =
    w.backgroundBytes > 0 && w.backgroundBytes <= 64 * 2 ** 20
      ? ""
      : '; dirty pages of the bench\'s database wait up to that age and go out in one burst, which commits wait behind (README, "Postgres settings")';
  return `host writeback: background at ${threshold} dirty, or at ${w.expireSeconds} s old${advice}`;
}

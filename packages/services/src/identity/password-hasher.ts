import { hashPassword, needsRehash, verifyPassword } from "@hookflow/domain";
import { createTurns } from "../turns.js";

export interface PasswordHasher {
  hash: (password: string) => Promise<string>;
  /** `rehash` when the password matched a hash made with weaker parameters than today's. */
  verify: (password: string, encoded: string) => Promise<{ matches: boolean; rehash: boolean }>;
}

/**
 * scrypt at today's cost needs 128 MiB and about half a second of a libuv pool thread per hash.
 * At most `concurrency` hashes run at once per process, the rest wait their turn: memory stays
 * bounded whatever arrives, and the pool keeps threads free for DNS lookups and file reads.
 */
export function createPasswordHasher(options: { concurrency: number }): PasswordHasher {
  const inTurn = createTurns(options.concurrency);
  return {
    hash: (password) => inTurn(() => hashPassword(password)),
    verify: async (password, encoded) => {
      const matches = await inTurn(() => verifyPassword(password, encoded));
      return { matches, rehash: matches && needsRehash(encoded) };
    },
  };
}

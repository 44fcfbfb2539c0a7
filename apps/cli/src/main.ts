#!/usr/bin/env node
import { ConfigError } from "@hookflow/config";
import { dispatch } from "./cli.js";
import { readConfig } from "./env.js";

// `pnpm hookflow -- <args>` hands the separator through; it is not part of the command line.
const argv = process.argv.slice(2);
if (argv[0] === "--") argv.shift();

dispatch(argv, readConfig).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // A bad environment is the operator's to fix: the message names every variable, no stack.
    const text =
      error instanceof ConfigError
        ? error.message
        : error instanceof Error
          ? (error.stack ?? error.message)
          : String(error);
    process.stderr.write(`hookflow: ${text}\n`);
    process.exit(1);
  },
);

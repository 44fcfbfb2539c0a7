export * from "./scheduled-runs.js";

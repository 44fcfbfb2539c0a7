export * from "./chain-steps.js";

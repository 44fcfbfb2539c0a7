export * from "./pattern-size.js";
export * from "./user-pattern.js";

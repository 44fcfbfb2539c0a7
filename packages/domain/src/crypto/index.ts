export * from "./key-ring.js";

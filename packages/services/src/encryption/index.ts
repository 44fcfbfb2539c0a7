export * from "./rotate-encryption-key.js";

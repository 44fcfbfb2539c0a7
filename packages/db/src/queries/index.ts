export * from "./auth-lookups.js";

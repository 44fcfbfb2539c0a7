export * from "./credential-data.js";

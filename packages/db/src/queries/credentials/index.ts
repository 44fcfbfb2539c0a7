export * from "./credential-rows.js";
export * from "./reseal-credentials.js";

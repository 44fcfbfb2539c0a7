export * from "./credential-store.js";
export * from "./gmail-operations.js";
export * from "./google-client.js";
export * from "./google-http.js";
export * from "./mime.js";
export * from "./sheets-operations.js";

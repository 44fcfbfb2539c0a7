export * from "./create-credential.js";
export type { CredentialView } from "./credential-view.js";
export * from "./delete-credential.js";
export * from "./get-credential.js";
export * from "./list-credentials.js";
export * from "./update-credential.js";

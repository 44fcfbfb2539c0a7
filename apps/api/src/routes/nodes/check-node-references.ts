/** The reference checks live in @hookflow/services (nodes/check-node-references.ts). */
export { checkReferencedRecords, type RecordReference } from "@hookflow/services";

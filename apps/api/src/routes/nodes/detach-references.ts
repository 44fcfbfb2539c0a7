/** Detaching a deleted record's references lives in @hookflow/services (nodes/detach-references.ts). */
export { detachReferences } from "@hookflow/services";

/** The tag of the approval sub-routes: beside the approval nodes' CRUD. */
export const APPROVAL_NODES_TAG = "Approval nodes";
export const APPROVAL_LINKS_TAG = "Approval links";

import type { BodyOf, ResultOf } from "../operation-types.js";
import { iteratePages, type Page, type PageQuery, pageOfArray } from "../paging.js";
import { segment, type Transport } from "../transport.js";

/** `client.auth`: accounts and sessions. */
export function authResource(transport: Transport) {
  return {
    signUp: async (body: BodyOf<"signUp">) =>
      (await transport.request<ResultOf<"signUp">>("POST", "/api/auth/signup", { body })).data,
    logIn: async (body: BodyOf<"logIn">) =>
      (await transport.request<ResultOf<"logIn">>("POST", "/api/auth/login", { body })).data,
    logOut: async (): Promise<void> => {
      await transport.request("POST", "/api/auth/logout");
    },
    me: async () => (await transport.request<ResultOf<"getMe">>("GET", "/api/auth/me")).data,
  };
}

/** `client.apiKeys` (needs a session token). */
export function apiKeysResource(transport: Transport) {
  return {
    list: async () =>
      (await transport.request<ResultOf<"listApiKeys">>("GET", "/api/api-keys")).data,
    /** The answer's `key` is the only time the key's value is shown. */
    create: async (body: BodyOf<"createApiKey">) =>
      (await transport.request<ResultOf<"createApiKey">>("POST", "/api/api-keys", { body })).data,
    revoke: async (id: string): Promise<void> => {
      await transport.request("DELETE", `/api/api-keys/${segment(id)}`);
    },
  };
}

/** `client.organizations` (needs a session token). */
export function organizationsResource(transport: Transport) {
  const members = (id: string) => `/api/organizations/${segment(id)}/members`;
  return {
    list: async () =>
      (await transport.request<ResultOf<"listOrganizations">>("GET", "/api/organizations")).data,
    create: async (body: BodyOf<"createOrganization">) =>
      (
        await transport.request<ResultOf<"createOrganization">>("POST", "/api/organizations", {
          body,
        })
      ).data,
    addMember: async (id: string, body: BodyOf<"addOrganizationMember">) =>
      (await transport.request<ResultOf<"addOrganizationMember">>("POST", members(id), { body }))
        .data,
    removeMember: async (id: string, userId: string): Promise<void> => {
      await transport.request("DELETE", `${members(id)}/${segment(userId)}`);
    },
  };
}

type PendingApproval = ResultOf<"listPendingApprovals"> extends Array<infer T> ? T : never;

/** `client.approvals`: events waiting at approval nodes, and decisions. */
export function approvalsResource(transport: Transport) {
  const node = (id: string, action: string) => `/api/approval-nodes/${segment(id)}/${action}`;
  const pending = async (nodeId: string, query: PageQuery = {}): Promise<Page<PendingApproval>> => {
    const { data, response } = await transport.request<ResultOf<"listPendingApprovals">>(
      "GET",
      node(nodeId, "pending"),
      { query: { ...query } },
    );
    return pageOfArray(data, response, query);
  };
  return {
    pending,
    iteratePending: (nodeId: string, query: PageQuery = {}) =>
      iteratePages((page) => pending(nodeId, page), query),
    approve: async (nodeId: string, eventId: string) =>
      (
        await transport.request<ResultOf<"approveEvent">>("POST", node(nodeId, "approve"), {
          body: { eventId },
        })
      ).data,
    reject: async (nodeId: string, eventId: string) =>
      (
        await transport.request<ResultOf<"rejectEvent">>("POST", node(nodeId, "reject"), {
          body: { eventId },
        })
      ).data,
    outbox: async (nodeId: string, query: PageQuery = {}) =>
      (
        await transport.request<ResultOf<"listApprovalOutbox">>("GET", node(nodeId, "outbox"), {
          query: { ...query },
        })
      ).data,
  };
}

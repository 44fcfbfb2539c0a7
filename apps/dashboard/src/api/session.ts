const TOKEN_KEY = "hookflow.session";
const ORG_KEY = "hookflow.organization";

/** The session token and the organization acted for, kept in this browser. */
export const sessionStore = {
  token: (): string | null => localStorage.getItem(TOKEN_KEY),
  setToken: (token: string | null) => {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  },
  organization: (): string | null => localStorage.getItem(ORG_KEY),
  setOrganization: (id: string | null) => {
    if (id) localStorage.setItem(ORG_KEY, id);
    else localStorage.removeItem(ORG_KEY);
  },
};

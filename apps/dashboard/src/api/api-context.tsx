import { useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";
import { type Api, createApi } from "./client";
import { sessionStore } from "./session";

interface SessionState {
  api: Api;
  token: string | null;
  organizationId: string | null;
  signIn: (token: string) => void;
  signOut: () => void;
  switchOrganization: (id: string | null) => void;
}

const SessionContext = createContext<SessionState | null>(null);

/** Holds the session and the acting organization; rebuilds the client when either changes. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState(sessionStore.token);
  const [organizationId, setOrganizationId] = useState(sessionStore.organization);

  const signOut = useCallback(() => {
    sessionStore.setToken(null);
    sessionStore.setOrganization(null);
    setToken(null);
    setOrganizationId(null);
    queryClient.clear();
  }, [queryClient]);

  const api = useMemo(
    () => createApi({ token, organizationId, onUnauthorized: signOut }),
    [token, organizationId, signOut],
  );

  const value = useMemo<SessionState>(
    () => ({
      api,
      token,
      organizationId,
      signIn: (next) => {
        sessionStore.setToken(next);
        setToken(next);
      },
      signOut,
      switchOrganization: (id) => {
        sessionStore.setOrganization(id);
        setOrganizationId(id);
        queryClient.clear();
      },
    }),
    [api, token, organizationId, signOut, queryClient],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession outside SessionProvider");
  return session;
}

import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Link, useLocation } from "wouter";
import { useSession } from "../api/api-context";
import { call } from "../api/client";

const NAV = [
  { href: "/webhooks", label: "Webhooks" },
  { href: "/events", label: "Events" },
  { href: "/approvals", label: "Approvals" },
  { href: "/settings/api-keys", label: "API keys" },
  { href: "/settings/organizations", label: "Organizations" },
];

function useMe() {
  const { api, token } = useSession();
  return useQuery({
    queryKey: ["me", token],
    queryFn: () => call(api.GET("/api/auth/me")),
    staleTime: 60_000,
  });
}

function OrganizationSwitcher() {
  const { organizationId, switchOrganization } = useSession();
  const me = useMe();
  const memberships = me.data?.memberships ?? [];
  return (
    <div className="stack" style={{ gap: "0.3rem" }}>
      <label htmlFor="org-switch">Workspace</label>
      <select
        id="org-switch"
        aria-label="Workspace"
        value={organizationId ?? ""}
        onChange={(e) => switchOrganization(e.target.value || null)}
      >
        <option value="">Personal</option>
        {memberships.map((m) => (
          <option key={m.organizationId} value={m.organizationId}>
            {m.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The console's frame: navigation, workspace switcher, account, and the page. */
export function Layout({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const { signOut, api } = useSession();
  const me = useMe();
  const logOut = async () => {
    await api.POST("/api/auth/logout").catch(() => undefined);
    signOut();
  };
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <aside className="sidebar">
        <div className="brand">
          <img src="/favicon.svg" alt="" /> Hookflow
        </div>
        <nav className="nav" aria-label="Main">
          {NAV.map((item) => (
            <Link
              key={item.href}
              href={item.href}
              aria-current={location.startsWith(item.href) ? "page" : undefined}
            >
              {item.label}
            </Link>
          ))}
          <a href="/api/docs" target="_blank" rel="noreferrer">
            API reference ↗
          </a>
        </nav>
        <div className="sidebar-foot">
          <OrganizationSwitcher />
          <div className="muted small hide-narrow" style={{ color: "#aab0d6" }}>
            {me.data?.user.email}
          </div>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => void logOut()}>
            Log out
          </button>
        </div>
      </aside>
      <main id="main" className="main">
        {children}
      </main>
    </div>
  );
}

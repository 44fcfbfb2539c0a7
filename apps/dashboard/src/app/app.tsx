import { Redirect, Route, Switch } from "wouter";
import { useSession } from "../api/api-context";
import { ApprovalsPage } from "../pages/approvals/approvals-page";
import { LoginPage, SignupPage } from "../pages/auth/auth-pages";
import { CanvasPage } from "../pages/canvas/canvas-page";
import { EventsPage } from "../pages/events/events-page";
import { ApiKeysPage } from "../pages/settings/api-keys-page";
import { OrganizationsPage } from "../pages/settings/organizations-page";
import { WebhookPage } from "../pages/webhooks/webhook-page";
import { WebhooksPage } from "../pages/webhooks/webhooks-page";
import { Layout } from "./layout";

/** Client routes; the api serves index.html for each of them. */
export function App() {
  const { token } = useSession();
  if (!token) {
    return (
      <Switch>
        <Route path="/signup" component={SignupPage} />
        <Route path="/login" component={LoginPage} />
        <Route>
          <Redirect to="/login" />
        </Route>
      </Switch>
    );
  }
  return (
    <Layout>
      <Switch>
        <Route path="/">
          <Redirect to="/webhooks" />
        </Route>
        <Route path="/login">
          <Redirect to="/webhooks" />
        </Route>
        <Route path="/signup">
          <Redirect to="/webhooks" />
        </Route>
        <Route path="/webhooks" component={WebhooksPage} />
        <Route path="/webhooks/:id/canvas">{(p) => <CanvasPage webhookId={p.id} />}</Route>
        <Route path="/webhooks/:id">{(p) => <WebhookPage id={p.id} />}</Route>
        <Route path="/events" component={EventsPage} />
        <Route path="/approvals" component={ApprovalsPage} />
        <Route path="/settings/api-keys" component={ApiKeysPage} />
        <Route path="/settings/organizations" component={OrganizationsPage} />
        <Route>
          <div className="card">
            <h1>Page not found</h1>
            <p className="muted">There is nothing at this address.</p>
          </div>
        </Route>
      </Switch>
    </Layout>
  );
}

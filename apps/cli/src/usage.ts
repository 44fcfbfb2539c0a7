export const USAGE = `Usage: hookflow <command> [options]

Commands:
  start                      Run every role (api, ingress, worker, stream) behind PORT; the
                             worker runs in a child process when there are two or more cores
  start --worker-processes <n|auto>
                             Worker child processes beside the http process (0: one process)
  start --role <role>        Run one role: api | ingress | worker | stream
  migrate                    Create the database if missing and apply migrations
  admin create-user ...      Create a user (hookflow admin create-user --help)
  admin create-key ...       Create an API key (hookflow admin create-key --help)
  admin rotate-encryption-key  Re-encrypt stored credentials under HOOKFLOW_ENCRYPTION_KEY
  admin set-plan ...         Set a user's or organization's plan (hookflow admin set-plan --help)
  login --email <email>      Open a session on HOOKFLOW_URL and store it (hookflow login --help)
  logout                     End the stored session
  webhooks list|create|get   Webhooks (hookflow webhooks --help)
  events list|get|tail|replay|replay-all
                             Events (hookflow events --help)
  listen <webhook> --forward-to <url>
                             Forward each new event to a local URL (hookflow listen --help)
  help, --help               Show this help
  version, --version         Print the version

Server commands (start, migrate, admin) read the environment variables of the README's
configuration table. Client commands talk to a running Hookflow through the SDK: HOOKFLOW_URL
(default http://localhost:3000) and HOOKFLOW_API_KEY, or the session stored by \`hookflow login\`.
Add --json to a client command for machine-readable output.
`;

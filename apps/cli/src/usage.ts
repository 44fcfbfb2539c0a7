export const USAGE = `Usage: hookflow <command> [options]

Commands:
  start                      Run every role (api, ingress, worker, stream) in one process on PORT
  start --role <role>        Run one role: api | ingress | worker | stream
  migrate                    Create the database if missing and apply migrations
  admin create-user ...      Create a user (hookflow admin create-user --help)
  admin create-key ...       Create an API key (hookflow admin create-key --help)
  admin rotate-encryption-key  Re-encrypt stored credentials under HOOKFLOW_ENCRYPTION_KEY
  help, --help               Show this help
  version, --version         Print the version

Configuration comes from environment variables only (see the README's configuration table).
`;

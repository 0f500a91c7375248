#!/usr/bin/env bash
# End-to-end test of `graft mcp` with real MCP clients: the official
# TypeScript SDK client and the MCP Inspector CLI (fixtures/mcp/test/).
# Works from a clean clone: builds graft, installs the npm packages pinned
# in fixtures/mcp/package-lock.json with `npm ci`, runs node's test runner.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	echo "mcp.sh: node and npm are needed (Node.js 20 or later)" >&2
	exit 1
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 20 ]; then
	echo "mcp.sh: Node.js 20 or later is needed, found $(node --version)" >&2
	exit 1
fi

echo "mcp.sh: building graft"
(cd "$root" && go build -o "$work/graft" ./cmd/graft)

echo "mcp.sh: installing the pinned MCP clients"
cd "$root/fixtures/mcp"
npm ci --no-audit --no-fund --loglevel=error

echo "mcp.sh: running the end-to-end tests"
GRAFT_BIN="$work/graft" node --test test/

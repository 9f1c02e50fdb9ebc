#!/usr/bin/env bash
# Installs the pinned MCP TypeScript SDK (package-lock.json) that
# driver.mjs and agent/mcp's TypeScript client tests use. Needs node and npm.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund

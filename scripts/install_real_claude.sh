#!/usr/bin/env bash
# Installs the pinned real Claude Code CLI for the contract tests
# (tests/real_claude_*_contract_test.ts) into a cache outside the repo, skipping
# the install when it is already there, and prints the executable's path:
#
#   export CLAUDECM_REAL_CLAUDE="$(scripts/install_real_claude.sh)"
#   npx deno task test
#
# The version is the one the reference transcripts and the fake claude were
# made from; the contract tests check it (tests/helpers/real_claude.ts).
set -euo pipefail
version="${CLAUDECM_REAL_CLAUDE_VERSION:-2.1.332}"
dir="${XDG_CACHE_HOME:-$HOME/.cache}/claudecm/real-claude/$version"
bin="$dir/node_modules/.bin/claude"

installed() { "$bin" --version 2>/dev/null | grep -q "^$version "; }

if ! installed; then
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{ "private": true }' >"$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --no-save "@anthropic-ai/claude-code@$version" >&2
  # The package puts its native binary in place from a postinstall script; run it
  # by hand should npm have skipped install scripts.
  if ! installed; then
    (cd "$dir/node_modules/@anthropic-ai/claude-code" && node install.cjs) >&2
  fi
  installed || { echo "install_real_claude: $bin does not report version $version" >&2; exit 1; }
fi
echo "$bin"

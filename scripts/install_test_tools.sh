#!/usr/bin/env bash
# Installs the Debian packages the tests use to see claudecm as a person does:
# tmux (a real terminal: send-keys, capture-pane), bash/zsh/fish (completion
# scripts), groff (the man page), chromium (exported HTML in a real browser).
# Skips what is installed; needs root and apt (CI, a developer's Debian box).
# A test that needs one of them is skipped with a note where it is absent,
# except under CI=true, where the tool must be there.
set -euo pipefail
packages=(tmux bash zsh fish groff chromium)
[ "$(id -u)" = 0 ] || { echo "install_test_tools: not root, installing nothing" >&2; exit 0; }
command -v apt-get >/dev/null || { echo "install_test_tools: no apt-get, installing nothing" >&2; exit 0; }
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f '${Status}' "$package" 2>/dev/null | grep -q "ok installed" ||
    missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null ||
  { apt-get update >/dev/null && apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; }

#!/usr/bin/env bash
# The Windows build, checked on Linux: the pinned Windows Deno (npm package
# @deno/win32-x64, the version package.json pins for deno) under wine 10.
# From a clean checkout on a Debian machine with apt and npm (run as root;
# .ci/run runs it after the Linux suite):
#
#   1. installs wine 10 (from apt on Debian 13+; else in a Debian 13 chroot
#      built with mmdebstrap from the mirror the machine's apt sources name),
#      mingw-w64 and the Windows Deno; downloads and the chroot are cached in
#      ~/.cache/claudecm/windows, so a rerun installs nothing;
#   2. runs deno.exe --version and main.ts --help;
#   3. runs the Windows tests (quoting, paths, PATHEXT), which must all pass;
#   4. runs the end-to-end check (scripts/windows/e2e.ts: `claudecm new` and
#      `resume 1` against a mingw-built claude.exe and an npm-style claude.cmd
#      shim, with hostile arguments and a hostile machine name);
#   5. runs the whole suite, one file at a time, judged by Deno's summary
#      line (wine sometimes crashes at exit after printing it); a failure
#      not in scripts/windows/wine_allowlist.txt fails the check.
#
# Usage: scripts/windows_checks.sh [tests/x_test.ts ...]
#   With test files, runs steps 1-2 and those files only (for iterating).
# Exit status: 0 when every gate passed.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd -P)"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/claudecm/windows"
win="$cache/win"
deno_version="$(node -p 'require("./package.json").devDependencies.deno')"
allowlist="$repo/scripts/windows/wine_allowlist.txt"
windows_tests=(tests/windows_argv_test.ts tests/find_executable_test.ts tests/path_test.ts)
per_file_timeout=600
logs="$(mktemp -d "${TMPDIR:-/tmp}/claudecm-windows-checks.XXXXXX")"
export DEBIAN_FRONTEND=noninteractive

say() { printf '\n== %s\n' "$*"; }
die() { echo "windows_checks: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "run as root (it installs packages and may build a chroot)"
command -v apt-get >/dev/null || die "needs a Debian machine (apt-get)"

apt_install() {
  local missing=()
  for package in "$@"; do
    dpkg-query -W -f '${Status}' "$package" 2>/dev/null | grep -q "ok installed" ||
      missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null ||
    { apt-get update >/dev/null && apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; }
}

# The major version apt would install for wine, 0 when it has none.
wine_candidate_major() {
  apt-cache policy wine 2>/dev/null | awk '/Candidate:/ {
    v = $2; sub(/^[0-9]+:/, "", v); split(v, part, /[.~+-]/)
    print (v == "(none)" ? 0 : part[1] + 0); exit
  }'
}

# The Debian mirror the machine's apt sources name (deb822 or one-line form).
apt_mirror() {
  local uri
  uri="$({
    grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{ print $2 }'
    grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list |
      awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; break } }'
  } | grep -v -e security -e '^file:' | head -n 1)"
  echo "${uri:-http://deb.debian.org/debian}"
}

say "installing wine 10, mingw-w64 and Windows Deno $deno_version (cache: $cache)"
started=$SECONDS
mkdir -p "$win"
apt_install gcc-mingw-w64-x86-64
root=""
if [ "$(wine_candidate_major)" -ge 10 ] || { [ "$(wine_candidate_major)" = 0 ] && apt-get update >/dev/null && [ "$(wine_candidate_major)" -ge 10 ]; }; then
  apt_install wine wine64
else
  root="$cache/debian13"
  # A run that was killed may have left its bind mounts (of /dev, the repo...) in the
  # chroot: undo them before anything there is touched, and never delete through one.
  { grep -o " $root/[^ ]*" /proc/mounts || true; } | sort -r | xargs -r -n 1 umount -l
  ! grep -q " $root" /proc/mounts || die "cannot unmount what is mounted under $root"
  if [ ! -x "$root/usr/lib/wine/wine64" ]; then
    apt_install mmdebstrap
    mirror="$(apt_mirror)"
    echo "building a Debian 13 chroot for wine 10 from $mirror"
    rm -rf --one-file-system "$root" "$root.tmp"
    mmdebstrap --quiet --variant=apt --include=wine,wine64 trixie "$root.tmp" "$mirror"
    mv "$root.tmp" "$root"
  fi
fi
deno_exe="$win/deno-$deno_version/package/deno.exe"
if [ ! -f "$deno_exe" ]; then
  rm -rf "$win/deno-$deno_version" && mkdir -p "$win/deno-$deno_version"
  tarball="$(cd "$win" && npm pack --silent "@deno/win32-x64@$deno_version")"
  tar -xzf "$win/$tarball" -C "$win/deno-$deno_version" && rm -f "$win/$tarball"
fi
x86_64-w64-mingw32-gcc -municode -O2 -Wall -o "$win/claude.exe" \
  scripts/windows/claude_logger.c -lshell32

wine_env=(env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 XDG_RUNTIME_DIR=/tmp
  WINEPREFIX="$win/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" NO_COLOR=1)
in_wine_root=("${wine_env[@]}")
[ -n "$root" ] && in_wine_root=(chroot "$root" "${wine_env[@]}")
# A wine tool (wine, wineboot, wineserver) with `args`.
run_wine_tool() { "${in_wine_root[@]}" "$@"; }
# deno.exe with `args`, in the repo, ended after the per-file timeout.
deno_win() {
  timeout -k 10 "$per_file_timeout" "${in_wine_root[@]}" sh -c 'cd "$0" && exec wine "$@"' \
    "$repo" "$deno_exe" "$@"
}
# Wine runs in the chroot, if any, with the repo (and node_modules, where it
# links elsewhere) and $win at the same paths as outside.
mounts=()
cleanup() {
  run_wine_tool wineserver -k 2>/dev/null || true
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -R -l "${mounts[i]}" 2>/dev/null || true; done
  rm -rf "$logs"
}
bind() {
  mkdir -p "$root$2"
  mount --rbind "$1" "$root$2"
  mount --make-rslave "$root$2"
  mounts+=("$root$2")
}
trap cleanup EXIT
if [ -n "$root" ]; then
  for dir in /proc /sys /dev; do bind "$dir" "$dir"; done
  bind "$repo" "$repo"
  bind "$win" "$win"
  modules="$(realpath node_modules)"
  case "$modules" in "$repo"/*) ;; *) bind "$modules" "$modules" ;; esac
fi
run_wine_tool wineboot -i >/dev/null 2>&1 || true
echo "ready in $((SECONDS - started)) s: $(run_wine_tool wine --version)"

say "deno.exe --version and main.ts --help"
version_out="$(deno_win --version 2>&1)" || true
echo "$version_out" | head -n 1
grep -q "^deno $deno_version " <<<"$version_out" || die "deno.exe --version: $version_out"
help_out="$(deno_win run -A main.ts --help 2>&1)" || true
grep -q "^Usage: claudecm" <<<"$help_out" || die "main.ts --help under wine: $help_out"
echo "main.ts --help: ok"

# The allow-listed failures: `tests/x_test.ts | test name | why` lines.
allowed() {
  grep -v '^\s*#' "$allowlist" | awk -F' [|] ' -v file="$1" -v name="$2" \
    '$1 == file && ($2 == name || $2 == "*") { found = 1 } END { exit !found }'
}

total_passed=0
total_failed=0
unexpected=()
flaky=()
allowed_count=0
# One run of a test file: prints its line and sets run_passed, run_failed, run_allowed and
# run_unexpected (its failures beyond the allow-list; all of them with `strict`), with the first
# lines of what they printed in $logs/why.txt.
run_once() {
  local file="$1" strict="$2" log summary name
  log="$logs/$(basename "$file" .ts).log"
  run_passed=0 run_failed=0 run_allowed=0 run_unexpected=()
  : >"$logs/why.txt"
  deno_win test -A --no-check "$file" >"$log" 2>&1 || true
  summary="$(grep -E '^(ok|FAILED) \| [0-9]+ passed' "$log" | tail -n 1 || true)"
  if [ -z "$summary" ]; then
    run_failed=1
    echo "CRASH  $file (no summary line: crashed or timed out)"
    tail -n 20 "$log" | sed 's/^/       /' | tee "$logs/why.txt"
    if [ -z "$strict" ] && allowed "$file" "*"; then run_allowed=1; else run_unexpected=("$file (no summary line)"); fi
    return 0
  fi
  run_passed="$(sed -E 's/.*\| ([0-9]+) passed.*/\1/' <<<"$summary")"
  run_failed="$(sed -E 's/.*\| ([0-9]+) failed.*/\1/' <<<"$summary")"
  printf '%-6s %s: %s passed, %s failed\n' "$([ "$run_failed" = 0 ] && echo ok || echo FAILED)" \
    "$file" "$run_passed" "$run_failed"
  [ "$run_failed" = 0 ] && return 0
  while IFS= read -r name; do
    if [ -z "$strict" ] && allowed "$file" "$name"; then
      run_allowed=$((run_allowed + 1))
      echo "       allowed: $name"
    else
      run_unexpected+=("$file: $name")
      echo "       FAILED: $name"
    fi
  done < <(sed -n '/^ FAILURES /,$p' "$log" | sed -nE "s#^(.*) => \./${file//./\\.}:[0-9]+:[0-9]+\$#\1#p")
  [ ${#run_unexpected[@]} = 0 ] && return 0
  sed -n '/^ ERRORS /,/^ FAILURES /p' "$log" | head -n 60 | sed 's/^/       /'
  sed -n '/^ ERRORS /,/^ FAILURES /p' "$log" | sed '1,2d; / FAILURES /d' | head -n 20 |
    sed 's/^/    /' >"$logs/why.txt"
}
# Run one test file; adds to the totals; returns 1 when it failed beyond the allow-list (or at
# all, with `strict`). Under wine a test now and then fails once and passes on every rerun (CI
# saw two such, in different tests, neither reproduced in dozens of rounds), so a file of the
# suite that fails is run once more: it passes only if the rerun is clean, and the first failure
# is still reported, with what it printed, at the end of the run. The Windows tests get no rerun.
run_test_file() {
  local file="$1" strict="${2:-}" first=()
  run_once "$file" "$strict"
  if [ ${#run_unexpected[@]} -gt 0 ] && [ -z "$strict" ]; then
    first=("${run_unexpected[@]}")
    { echo "  $file:"; cat "$logs/why.txt"; } >"$logs/first_why.txt"
    echo "       once more: $file"
    run_once "$file" "$strict"
    if [ ${#run_unexpected[@]} = 0 ]; then
      flaky+=("${first[@]}")
      cat "$logs/first_why.txt" >>"$logs/flaky.txt"
    fi
  fi
  total_passed=$((total_passed + run_passed))
  total_failed=$((total_failed + run_failed))
  allowed_count=$((allowed_count + run_allowed))
  [ ${#run_unexpected[@]} = 0 ] && return 0
  unexpected+=("${run_unexpected[@]}")
  { echo "  $file:"; cat "$logs/why.txt"; } >>"$logs/unexpected.txt"
  return 1
}

status=0
if [ $# -gt 0 ]; then
  say "test files under wine"
  for file in "$@"; do run_test_file "$file" || status=1; done
  echo "$total_passed passed, $total_failed failed"
  exit "$status"
fi

say "the Windows tests (every one must pass)"
for file in "${windows_tests[@]}"; do run_test_file "$file" strict || status=1; done

say "end-to-end: claudecm new and resume 1 against claude.exe and claude.cmd"
deno_win run -A scripts/windows/e2e.ts "$win/claude.exe" || status=1

say "the whole suite under wine, one file at a time"
suite_started=$SECONDS
for file in tests/*_test.ts; do
  case " ${windows_tests[*]} " in *" $file "*) continue ;; esac
  run_test_file "$file" || status=1
done
echo "suite took $((SECONDS - suite_started)) s; $allowed_count allow-listed failure(s)," \
  "${#unexpected[@]} not allow-listed"
for failure in "${flaky[@]}"; do echo "  failed once, passed on a rerun: $failure"; done
for failure in "${unexpected[@]}"; do echo "  not allow-listed: $failure"; done
# Why, again at the end (shorter): a CI page that keeps only the tail of the output still says it.
[ -f "$logs/flaky.txt" ] && { echo "what the failures that passed on a rerun printed:"; cat "$logs/flaky.txt"; }
[ -f "$logs/unexpected.txt" ] && { echo "what the failures printed:"; cat "$logs/unexpected.txt"; }
# The closing line counts an allow-listed failure (a wine artefact) as skipped, not failed: it does
# not gate, as a test that cannot apply on this platform would not.
echo "windows: $total_passed passed, $((total_failed - allowed_count)) failed, $allowed_count skipped," \
  "${#flaky[@]} failed once and passed on a rerun"
exit "$status"

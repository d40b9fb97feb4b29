#!/bin/sh
# Install claudecm on Linux or macOS: download the release binary for this
# system and the release's SHA256SUMS, check the binary against it, and only
# then put it in ~/.local/bin (or the folder you choose) as `claudecm`.
#
#   curl -fsSL <release>/install.sh | sh
#   sh install.sh [--dir DIR]
#
# Environment:
#   CLAUDECM_INSTALL_DIR   where to install (default ~/.local/bin; --dir wins)
#   CLAUDECM_VERSION       a release tag such as v0.1.0 (default: the latest release)
#   CLAUDECM_REPO          the GitHub repository (owner/name) to download from
#   CLAUDECM_RELEASE_URL   a folder holding the assets and SHA256SUMS, used
#                          instead of the GitHub release (a mirror, a test)
#   CLAUDECM_INSTALL_OS, CLAUDECM_INSTALL_ARCH
#                          take the place of `uname -s` and `uname -m`
#
# Windows: use install.ps1.

set -eu

# The release workflow writes the repository here in the copy it uploads.
DEFAULT_REPO="@GITHUB_REPOSITORY@"

say() { printf '%s\n' "$*"; }
die() {
	printf 'claudecm install: %s\n' "$*" >&2
	exit 1
}

usage() {
	say "usage: install.sh [--dir DIR]"
	say "Installs the claudecm release binary for this system into DIR (default ~/.local/bin)."
}

# The release asset for an OS and architecture as uname names them.
asset_for() {
	case "$1" in
	Linux) os=linux ;;
	Darwin) os=macos ;;
	*) return 1 ;;
	esac
	case "$2" in
	x86_64 | amd64) arch=x86_64 ;;
	aarch64 | arm64) arch=aarch64 ;;
	*) return 1 ;;
	esac
	say "claudecm-$os-$arch"
}

detect_arch() {
	arch=$(uname -m)
	# A shell under Rosetta reports x86_64 on Apple silicon: take the native binary.
	if [ "$(uname -s)" = Darwin ] && [ "$arch" = x86_64 ] &&
		[ "$(sysctl -n sysctl.proc_translated 2>/dev/null || true)" = 1 ]; then
		arch=arm64
	fi
	say "$arch"
}

download() {
	if command -v curl >/dev/null 2>&1; then
		curl -fsSL --retry 2 -o "$2" "$1" || die "could not download $1"
	elif command -v wget >/dev/null 2>&1; then
		wget -q -O "$2" "$1" || die "could not download $1"
	else
		die "neither curl nor wget is installed; install one and run this again"
	fi
}

sha256_of() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -d ' ' -f 1
	elif command -v shasum >/dev/null 2>&1; then
		shasum -a 256 "$1" | cut -d ' ' -f 1
	else
		die "neither sha256sum nor shasum is installed, so the download cannot be checked"
	fi
}

# The checksum SHA256SUMS lists for an asset ("HASH  NAME" or "HASH *NAME").
expected_sum() {
	while read -r sum name; do
		if [ "$name" = "$2" ] || [ "$name" = "*$2" ]; then
			say "$sum"
			return 0
		fi
	done <"$1"
	return 1
}

path_advice() {
	case ":${PATH:-}:" in
	*":$1:"*) return 0 ;;
	esac
	say ""
	say "$1 is not on your PATH. To add it, run:"
	case "${SHELL:-}" in
	*/zsh) say "  echo 'export PATH=\"$1:\$PATH\"' >> ~/.zshrc && exec zsh" ;;
	*/fish) say "  fish_add_path '$1'" ;;
	*/bash) say "  echo 'export PATH=\"$1:\$PATH\"' >> ~/.bashrc && exec bash" ;;
	*) say "  echo 'export PATH=\"$1:\$PATH\"' >> ~/.profile   (then open a new terminal)" ;;
	esac
}

# The one step that turns on tab completion for the user's shell (claudecm completions --help).
completion_advice() {
	case "${SHELL:-}" in
	*/zsh) say "Tab completion: add  eval \"\$(claudecm completions zsh)\"  to ~/.zshrc (after compinit)" ;;
	*/fish) say "Tab completion: claudecm completions fish > ~/.config/fish/completions/claudecm.fish" ;;
	*) say "Tab completion: add  eval \"\$(claudecm completions bash)\"  to ~/.bashrc" ;;
	esac
}

main() {
	dir="${CLAUDECM_INSTALL_DIR:-}"
	while [ $# -gt 0 ]; do
		case "$1" in
		--dir)
			[ $# -ge 2 ] || die "--dir needs a folder"
			dir="$2"
			shift 2
			;;
		--dir=*)
			dir="${1#--dir=}"
			shift
			;;
		-h | --help)
			usage
			return 0
			;;
		*) die "unknown argument: $1 (see --help)" ;;
		esac
	done
	if [ -z "$dir" ]; then
		[ -n "${HOME:-}" ] || die "HOME is not set; choose a folder with --dir"
		dir="$HOME/.local/bin"
	fi
	# A relative folder is taken from here; the PATH advice must name it whole, or it would
	# work from this folder only and put a folder that moves with you ahead of /usr/bin.
	case "$dir" in
		/*) ;;
		*) dir="$(pwd)/$dir" ;;
	esac

	os="${CLAUDECM_INSTALL_OS:-$(uname -s)}"
	arch="${CLAUDECM_INSTALL_ARCH:-$(detect_arch)}"
	asset=$(asset_for "$os" "$arch") || die "no claudecm binary for $os $arch" \
		"(there are Linux and macOS builds for x86_64 and aarch64; on Windows use install.ps1)"

	if [ -n "${CLAUDECM_RELEASE_URL:-}" ]; then
		base="${CLAUDECM_RELEASE_URL%/}"
	else
		repo="${CLAUDECM_REPO:-$DEFAULT_REPO}"
		case "$repo" in
		@* | */*/* | /* | */) repo="" ;;
		*/*) ;;
		*) repo="" ;;
		esac
		[ -n "$repo" ] ||
			die "no release to download from: set CLAUDECM_REPO=owner/name or CLAUDECM_RELEASE_URL"
		if [ -n "${CLAUDECM_VERSION:-}" ]; then
			base="https://github.com/$repo/releases/download/$CLAUDECM_VERSION"
		else
			base="https://github.com/$repo/releases/latest/download"
		fi
	fi

	tmp=$(mktemp -d 2>/dev/null || mktemp -d -t claudecm)
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 130' INT TERM

	say "Downloading $asset from $base"
	download "$base/SHA256SUMS" "$tmp/SHA256SUMS"
	download "$base/$asset" "$tmp/$asset"
	expected=$(expected_sum "$tmp/SHA256SUMS" "$asset") ||
		die "SHA256SUMS has no line for $asset; nothing installed"
	actual=$(sha256_of "$tmp/$asset")
	[ "$actual" = "$expected" ] ||
		die "checksum mismatch for $asset (expected $expected, got $actual); nothing installed"

	mkdir -p "$dir" || die "cannot create $dir"
	target="$dir/claudecm"
	# Copy beside the target, then rename over it: a claudecm that is running
	# keeps its old file, and nothing half-written is ever named claudecm.
	cp "$tmp/$asset" "$target.download" || die "cannot write into $dir"
	chmod 755 "$target.download"
	mv -f "$target.download" "$target" || {
		rm -f "$target.download"
		die "cannot replace $target"
	}

	if version=$("$target" --version 2>/dev/null); then
		say "Installed claudecm $version at $target"
	else
		say "Installed $target, but it did not start here: run '$target --version' to see why"
	fi
	path_advice "$dir"
	completion_advice
}

main "$@"

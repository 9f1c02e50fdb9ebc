#!/usr/bin/env bash
# Checks an asktui .deb the way someone who installs it would meet it,
# without installing anything: unpacks it into a temporary root, runs the
# packaged `asktui --version`, opens the packaged man page with `man -l`,
# and asks bash (bash-completion), zsh and fish whether they find the
# packaged completions where they look for those of installed commands.
# .ci/run calls it on the snapshot release's .deb.
#
#   bash scripts/check-deb.sh dist/asktui_1.2.3_amd64.deb [COMMIT]
#
# With COMMIT, --version must report that commit (a release build's
# ldflags). A shell that is not installed is checked against the directory
# its Debian package searches instead, and says so; scripts/deps.sh
# installs man-db, bash-completion and zsh.
set -euo pipefail

deb=${1:?usage: check-deb.sh PACKAGE.deb [COMMIT]}
commit=${2:-}
[[ -f $deb ]] || { echo "check-deb: no such file: $deb" >&2; exit 1; }
deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
mkdir "$root"

fail() {
	echo "check-deb: $*" >&2
	exit 1
}

# field NAME prints a field of the package's control file.
if command -v dpkg-deb >/dev/null; then
	dpkg-deb -x "$deb" "$root"
	field() { dpkg-deb -f "$deb" "$1"; }
elif command -v ar >/dev/null; then
	# A .deb is an ar archive of debian-binary, control.tar.* and data.tar.*.
	(cd "$tmp" && ar x "$deb")
	tar -xf "$tmp"/data.tar.* -C "$root"
	mkdir "$tmp/control"
	tar -xf "$tmp"/control.tar.* -C "$tmp/control"
	field() { sed -n "s/^$1: //p" "$tmp/control/control"; }
else
	fail "neither dpkg-deb nor ar is installed to unpack $deb"
fi

echo "package:"
for f in Package Version Architecture Maintainer Homepage Section Description; do
	v=$(field "$f")
	v=${v%%$'\n'*} # the first line; | head could end dpkg-deb by SIGPIPE
	[[ -n $v ]] || fail "the control file has no $f"
	printf '  %-12s %s\n' "$f" "$v"
done

# The binary, its --version. The package's version is the release's with
# its pre-release joined by "~" (0.0.1~next sorts before 0.0.1 in dpkg).
bin=$root/usr/bin/asktui
[[ -x $bin ]] || fail "no executable /usr/bin/asktui"
version=$("$bin" --version) || fail "asktui --version failed"
echo "asktui --version:"
sed 's/^/  /' <<<"$version"
want="asktui version v$(field Version | tr '~' '-')"
[[ $(head -n 1 <<<"$version") == "$want" ]] || fail "--version begins $(head -n 1 <<<"$version"), want $want"
if [[ -n $commit ]]; then
	grep -Eq "^commit  $commit( \(modified\))?\$" <<<"$version" || fail "--version does not report commit $commit"
	grep -Eq '^date    [0-9]{4}-[0-9]{2}-[0-9]{2}T' <<<"$version" || fail "--version reports no commit date"
fi
grep -q '^go      go1\.' <<<"$version" || fail "--version reports no Go version"

# The man page, as man-db renders it; groff's warnings are failures.
page=$root/usr/share/man/man1/asktui.1.gz
[[ -s $page ]] || fail "no man page /usr/share/man/man1/asktui.1.gz"
if command -v man >/dev/null; then
	rendered=$(MANWIDTH=80 man --warnings -l "$page" 2>"$tmp/man.err") || fail "man -l failed: $(cat "$tmp/man.err")"
	[[ ! -s $tmp/man.err ]] || fail "man -l warned: $(cat "$tmp/man.err")"
	grep -q '^NAME' <<<"$rendered" && grep -q 'asktui - ' <<<"$rendered" || fail "the man page has no NAME section for asktui"
	echo "man -l: $(wc -l <<<"$rendered") lines, no warnings"
else
	gzip -t "$page"
	echo "man -l: man is not installed (scripts/deps.sh installs man-db); checked only that the page is gzip"
fi

# An empty home, so the shells read and write nothing of the user's.
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config XDG_DATA_HOME=$tmp/home/.local/share
mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME"
path=$root/usr/bin:$PATH

# bash: bash-completion loads a command's completion on first use from
# completions/ under each of $XDG_DATA_DIRS; then the completion itself is
# asked for asktui's subcommands (it runs the packaged asktui).
if [[ -r /usr/share/bash-completion/bash_completion ]]; then
	words=$(XDG_DATA_DIRS=$root/usr/share:/usr/share PATH=$path bash --norc --noprofile -c '
		source /usr/share/bash-completion/bash_completion
		if declare -F _comp_load >/dev/null; then _comp_load asktui; else __load_completion asktui; fi
		spec=$(complete -p asktui) || exit 1
		fn=${spec##*-F }; fn=${fn%% *}
		COMP_WORDS=(asktui ""); COMP_CWORD=1; COMP_LINE="asktui "; COMP_POINT=${#COMP_LINE}
		"$fn" asktui "" asktui 2>/dev/null # compopt: no completion under way
		printf "%s\n" "${COMPREPLY[@]}"
	') || fail "bash-completion did not load a completion for asktui from the package"
	grep -qx 'ask' <<<"$words" || fail "the bash completion does not offer ask: $words"
	echo "bash: bash-completion loads the packaged completion; it offers $(wc -l <<<"$words") words"
else
	[[ -s $root/usr/share/bash-completion/completions/asktui ]] || fail "no bash completion in /usr/share/bash-completion/completions"
	echo "bash: bash-completion is not installed; the completion is in /usr/share/bash-completion/completions"
fi

# zsh: compinit finds _asktui on $fpath, with the unpacked root's copy of
# each $fpath directory searched first.
if command -v zsh >/dev/null; then
	src=$(zsh -fc '
		fpath=("$1"${^fpath} $fpath)
		autoload -Uz compinit && compinit -u -D
		[[ ${_comps[asktui]} == _asktui ]] || exit 1
		zmodload zsh/parameter && autoload +X _asktui && print -r -- ${functions_source[_asktui]}
	' zsh "$root") || fail "zsh's compinit finds no _asktui in the package on \$fpath"
	[[ $src == "$root"/* ]] || fail "zsh loads _asktui from $src, not from the package"
	echo "zsh: compinit finds ${src#"$root"}"
else
	[[ -s $root/usr/share/zsh/vendor-completions/_asktui ]] || fail "no zsh completion in /usr/share/zsh/vendor-completions"
	echo "zsh: not installed; the completion is in /usr/share/zsh/vendor-completions, on Debian's \$fpath"
fi

# fish: vendor_completions.d under each of $XDG_DATA_DIRS is on
# $fish_complete_path; the completion is asked for the subcommands.
if command -v fish >/dev/null; then
	out=$(XDG_DATA_DIRS=$root/usr/share:/usr/share PATH=$path fish -c '
		complete -C"asktui "
		functions --details __asktui_perform_completion
	') || fail "fish found no completion for asktui in the package"
	src=$(tail -n 1 <<<"$out")
	[[ $src == "$root"/* ]] || fail "fish loads asktui's completion from $src, not from the package"
	grep -q '^ask	' <<<"$out" || fail "the fish completion does not offer ask"
	echo "fish: finds ${src#"$root"}; it offers $(($(wc -l <<<"$out") - 1)) words"
else
	[[ -s $root/usr/share/fish/vendor_completions.d/asktui.fish ]] || fail "no fish completion in /usr/share/fish/vendor_completions.d"
	echo "fish: not installed; the completion is in /usr/share/fish/vendor_completions.d"
fi
echo "check-deb: $(basename "$deb") ok"

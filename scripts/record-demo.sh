#!/usr/bin/env bash
# Regenerates the README's animations: for each demo scenario, asktui plays
# itself (demo --autoplay) inside a real 100x30 pseudo-terminal (tmux) and
# records what it draws (demo --record, asciinema v2) into docs/NAME.cast; a
# pinned svg-term-cli from npm then turns each cast into docs/NAME.svg.
#
#   scripts/record-demo.sh               # parallel, setup and deploy
#   scripts/record-demo.sh deploy        # only some scenarios
#   scripts/record-demo.sh --install-tmux  # install tmux with apt-get first, if missing
#
# Needs Go, Node.js with npm, and tmux. A missing tmux is an error that
# says how to install it; only --install-tmux installs it (apt-get, with
# sudo unless run as root). svg-term-cli is installed with npm into a cache
# directory of its own, never system-wide.
# Safe to run again: results are replaced only when a recording succeeds,
# and the tmux server it starts (a private one) is gone when it exits.
# Fails if a recording fails, does not finish within RECORD_TIMEOUT seconds
# (default 300), or an SVG is over 2 MB. docs/RECORDING.md has the details.
set -euo pipefail

cd "$(dirname "$0")/.."

SVG_TERM_VERSION=2.1.1
COLS=100
ROWS=30
SPEED=2
THEME=dark
MAX_SVG_BYTES=$((2 * 1024 * 1024))
RECORD_TIMEOUT=${RECORD_TIMEOUT:-300}
# svg-term-cli is installed here once per version, not on every run.
SVG_TERM_DIR=${SVG_TERM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/asktui/svg-term-cli-$SVG_TERM_VERSION}

log() { echo "record-demo: $*" >&2; }
die() {
	log "$*"
	exit 1
}

install_tmux=false
scenarios=()
while (($# > 0)); do
	case $1 in
	--install-tmux) install_tmux=true ;;
	-h | --help)
		sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
		exit 0
		;;
	-*) die "unknown option $1 (see --help)" ;;
	*) scenarios+=("$1") ;;
	esac
	shift
done
if ((${#scenarios[@]} == 0)); then
	scenarios=(parallel setup deploy)
fi
for name in "${scenarios[@]}"; do
	[[ $name =~ ^[a-z0-9-]+$ ]] || die "\"$name\" is not a built-in scenario name (see asktui demo --list)"
done

need_tmux() {
	command -v tmux >/dev/null && return
	$install_tmux || die "tmux is missing: install it (on Debian or Ubuntu: sudo apt-get install tmux), or run again with --install-tmux to have this script do that"
	command -v apt-get >/dev/null || die "tmux is missing and there is no apt-get: install tmux with your package manager"
	log "installing tmux with apt-get (--install-tmux)"
	local sudo=()
	((EUID == 0)) || sudo=(sudo)
	"${sudo[@]}" apt-get install -y tmux >&2 ||
		{ "${sudo[@]}" apt-get update >&2 && "${sudo[@]}" apt-get install -y tmux >&2; } ||
		die "tmux is missing and apt-get could not install it"
}

need_svg_term() {
	svg_term=$SVG_TERM_DIR/node_modules/.bin/svg-term
	[[ -x $svg_term ]] && return
	command -v npm >/dev/null || die "npm is missing: install Node.js (apt-get install -y nodejs npm)"
	log "installing svg-term-cli@$SVG_TERM_VERSION into $SVG_TERM_DIR"
	mkdir -p "$SVG_TERM_DIR"
	npm install --prefix "$SVG_TERM_DIR" --no-audit --no-fund --no-save --loglevel=error \
		"svg-term-cli@$SVG_TERM_VERSION" >&2
	[[ -x $svg_term ]] || die "svg-term-cli did not install into $SVG_TERM_DIR"
}

tmp=$(mktemp -d)
sock="$tmp/tmux.sock" # a private server, gone with $tmp
cleanup() {
	# Ends the private tmux server and with it any asktui still running.
	tmux -S "$sock" kill-server 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

need_tmux
need_svg_term
command -v node >/dev/null || die "node is missing: install Node.js (apt-get install -y nodejs npm)"

log "building asktui"
go build -o "$tmp/asktui" .

# for_svg_term checks that IN is an asciicast v2 recording of COLSxROWS
# whose event lines all parse, and writes OUT: the same recording without
# the terminal queries and keyboard-mode sequences that bubbletea sends
# (CSI > 4;2 m, CSI > 1 u, CSI ? u, CSI ? 2026 $ p, ...). svg-term-cli's
# parser mistakes some of them for SGR (CSI > 4;2 m underlines the rest of
# the screen); a terminal ignores them or only answers, so the picture is the
# same. The committed .cast keeps every byte asktui drew.
for_svg_term() {
	node - "$1" "$2" "$COLS" "$ROWS" <<'EOF'
const fs = require('fs');
const [input, output, cols, rows] = process.argv.slice(2);
const lines = fs.readFileSync(input, 'utf8').split('\n').filter((l) => l !== '');
const fail = (msg) => { console.error(`${input}: ${msg}`); process.exit(1); };
if (lines.length < 2) fail('no events recorded');
const h = JSON.parse(lines[0]);
if (h.version !== 2) fail(`version ${h.version}, want 2`);
if (h.width !== +cols || h.height !== +rows) fail(`size ${h.width}x${h.height}, want ${cols}x${rows}`);
// Keep CSI sequences a plain terminal knows; drop those with a private
// marker (< = >) and the "?" ones that are not mode set/reset (h/l).
const csi = /\x1b\[([\x30-\x3f]*)([\x20-\x2f]*)([\x40-\x7e])/g;
const keep = (seq, params, inter, final) =>
	/^[<=>]/.test(params) || (params.startsWith('?') && (inter !== '' || !'hl'.includes(final))) ? '' : seq;
let last = 0;
const out = [lines[0]];
lines.slice(1).forEach((l, i) => {
	let e;
	try { e = JSON.parse(l); } catch (err) { fail(`line ${i + 2}: ${err.message}`); }
	if (!Array.isArray(e) || e.length !== 3 || typeof e[0] !== 'number' || typeof e[2] !== 'string') fail(`line ${i + 2}: not [time, type, data]`);
	if (e[0] < last) fail(`line ${i + 2}: time goes backwards`);
	last = e[0];
	if (e[1] === 'o') e[2] = e[2].replace(csi, keep);
	out.push(JSON.stringify(e));
});
fs.writeFileSync(output, out.join('\n') + '\n');
console.error(`${input}: ${lines.length - 1} events, ${last.toFixed(1)}s`);
EOF
}

# record NAME plays scenario NAME in a fresh COLSxROWS terminal and leaves
# its recording in $tmp/NAME.cast.
record() {
	local name=$1
	local cast="$tmp/$name.cast" rc="$tmp/$name.rc"
	# The command tmux runs: a fixed environment so every run draws the
	# same frames, and the exit code left in a file to poll for.
	cat >"$tmp/$name.sh" <<EOF
export TERM=xterm-256color COLORTERM=truecolor LANG=C.UTF-8 LC_ALL=C.UTF-8
unset NO_COLOR CLICOLOR_FORCE
"$tmp/asktui" demo "$name" --autoplay --speed $SPEED --theme $THEME --record "$cast" 2>"$tmp/$name.err"
echo \$? >"$rc.tmp" && mv "$rc.tmp" "$rc"
EOF
	log "recording $name (${COLS}x${ROWS}, speed $SPEED)"
	tmux -S "$sock" -f /dev/null new-session -d -s "$name" -x "$COLS" -y "$ROWS" -c "$PWD" "sh $tmp/$name.sh"
	local waited=0
	while [[ ! -f $rc ]]; do
		if ((waited >= RECORD_TIMEOUT * 2)); then
			log "$name did not finish within ${RECORD_TIMEOUT}s; its screen:"
			tmux -S "$sock" capture-pane -p -t "$name" >&2 || true
			tmux -S "$sock" kill-session -t "$name" 2>/dev/null || true
			return 1
		fi
		sleep 0.5
		waited=$((waited + 1))
	done
	if [[ $(cat "$rc") != 0 ]]; then
		log "asktui demo $name exited with $(cat "$rc"):"
		cat "$tmp/$name.err" >&2
		return 1
	fi
	[[ -s $cast ]] || { log "asktui demo $name wrote no recording"; return 1; }
	for_svg_term "$cast" "$tmp/$name.svg-term.cast"
}

mkdir -p docs
for name in "${scenarios[@]}"; do
	record "$name" || die "recording $name failed"
	log "rendering docs/$name.svg"
	"$svg_term" --in "$tmp/$name.svg-term.cast" --out "$tmp/$name.svg" --window --width "$COLS" --height "$ROWS"
	size=$(stat -c %s "$tmp/$name.svg")
	((size <= MAX_SVG_BYTES)) ||
		die "$name.svg would be $size bytes, over 2 MB: shorten the scenario or raise the speed (docs/$name.* left as they were)"
	mv "$tmp/$name.cast" "docs/$name.cast"
	mv "$tmp/$name.svg" "docs/$name.svg"
done

printf '%-20s %9s\n' file bytes
for name in "${scenarios[@]}"; do
	for f in "docs/$name.cast" "docs/$name.svg"; do
		printf '%-20s %9d\n' "$f" "$(stat -c %s "$f")"
	done
done

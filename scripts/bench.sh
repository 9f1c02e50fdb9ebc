#!/usr/bin/env bash
# Regenerates docs/benchmarks.md: asktui ask against gum choose and gum
# filter, whole processes in a real 120x40 pseudo-terminal
# (bench/ptybench has the method). It installs a pinned gum into a cache
# outside the repo (once), builds asktui from this checkout and the harness
# into a temporary directory, runs the harness and writes the report.
#
#   scripts/bench.sh                 # full run: 10, 1,000, 10,000 and 100,000 options
#   scripts/bench.sh --quick         # a few pairs, for checking that it works
#   scripts/bench.sh --reps 20 --options 10,1000 --out /tmp/b.md
#   scripts/bench.sh -- -v           # anything after -- goes to the harness
#
# Options (environment variables in brackets):
#   --quick            3 pairs per size, 2 at 100,000 options
#   --reps N           pairs per list size [BENCH_REPS, default 10]
#   --reps-large N     pairs at 100,000 options [BENCH_REPS_LARGE, default 5]
#   --options LIST     comma-separated list sizes [BENCH_OPTIONS]
#   --out FILE         where to write the report [default docs/benchmarks.md]
#   --note TEXT        a note printed under the report's title [BENCH_NOTE]
#   --no-scale         skip the scale benchmarks (go test -bench) appended
#                      to the report
#   --no-stream        skip the ACP floods (ptybench stream: asktui run
#                      against an agent that floods it, about 2 minutes)
#
# Needs Go and the module proxy. Run it on a quiet machine: the numbers
# are wall-clock times. A step that a program does not finish within the
# harness's -timeout (30 s) fails the run, with the screen at that moment.
set -euo pipefail

cd "$(dirname "$0")/.."

GUM_VERSION=v0.17.0
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/asktui-bench
# Both programs are built as their releases are (goreleaser: CGO_ENABLED=0,
# -trimpath, -s -w): a cgo build without -s -w starts about 5 ms slower,
# which is what a release user never sees.
RELEASE_BUILD=(-trimpath -ldflags "-s -w")
GUM=$CACHE/gum-$GUM_VERSION-release/gum

reps=${BENCH_REPS:-10}
reps_large=${BENCH_REPS_LARGE:-5}
sizes=${BENCH_OPTIONS:-10,1000,10000,100000}
out=docs/benchmarks.md
note=${BENCH_NOTE:-}
regen="scripts/bench.sh"
extra=()
scale=1
stream=1

log() { echo "bench: $*" >&2; }
die() {
	log "$*"
	exit 2
}

while (($# > 0)); do
	case $1 in
	--quick)
		reps=3 reps_large=2
		regen+=" --quick"
		;;
	--reps)
		reps=${2:?--reps needs a number}
		regen+=" --reps $2"
		shift
		;;
	--reps-large)
		reps_large=${2:?--reps-large needs a number}
		regen+=" --reps-large $2"
		shift
		;;
	--options)
		sizes=${2:?--options needs a comma-separated list}
		regen+=" --options $2"
		shift
		;;
	--out)
		out=${2:?--out needs a file}
		shift
		;;
	--note)
		note=${2:?--note needs a text}
		shift
		;;
	--no-scale)
		scale=
		;;
	--no-stream)
		stream=
		;;
	--)
		shift
		extra=("$@")
		break
		;;
	-h | --help)
		sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
		exit 0
		;;
	*) die "unknown argument $1 (see --help)" ;;
	esac
	shift
done

if [[ ! -x $GUM ]]; then
	log "installing gum $GUM_VERSION into $(dirname "$GUM")"
	mkdir -p "$(dirname "$GUM")"
	CGO_ENABLED=0 GOBIN=$(dirname "$GUM") go install "${RELEASE_BUILD[@]}" "github.com/charmbracelet/gum@$GUM_VERSION"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

log "building asktui and the harness"
CGO_ENABLED=0 go build "${RELEASE_BUILD[@]}" -o "$tmp/asktui" .
# The harness is a module of its own (bench/ptybench/go.mod).
(cd bench/ptybench && go build -o "$tmp/ptybench" .)

rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [[ $rev != unknown && -n $(git status --porcelain --untracked-files=no 2>/dev/null) ]]; then
	rev+=" with uncommitted changes"
fi

log "running: $sizes options, $reps pairs each ($reps_large from 100,000 on)"
start=$SECONDS
"$tmp/ptybench" \
	-asktui "$tmp/asktui" \
	-gum "$GUM" \
	-options "$sizes" \
	-reps "$reps" \
	-reps-large "$reps_large" \
	-asktui-rev "$rev" \
	-regen "$regen" \
	-note "$note" \
	-o "$tmp/report.md" \
	"${extra[@]}"

# The table above runs gum at asktui's height (34 rows at 120x40, the
# harness's -gum-height). gum's default height draws many more rows of a
# long list, so the issue's figures at 100,000 options are given both ways:
# the same pairs again with gum at its default height.
if [[ ,$sizes, == *,100000,* ]]; then
	log "running 100,000 options again with gum at its default height"
	"$tmp/ptybench" \
		-asktui "$tmp/asktui" \
		-gum "$GUM" \
		-options 100000 \
		-reps-large "$reps_large" \
		-init-reps 0 \
		-gum-height 0 \
		-asktui-rev "$rev" \
		-o "$tmp/default-height.md" \
		"${extra[@]}"
	{
		echo
		echo "## 100,000 options, gum at its default height"
		echo
		echo "The same as above, run right after it, but \`gum choose --header \"Pick one\"\`"
		echo "and \`gum filter --header \"Pick one\"\` without \`--height\`: gum then draws"
		echo "many more rows than asktui shows, which at 100,000 options costs it"
		echo "several times as long."
		echo
		sed -n '/^### 100,000 options/,/^Terminal queries/p' "$tmp/default-height.md" | sed '1d;$d'
	} >>"$tmp/report.md"
fi

# benchmarks PKG PATTERN BENCHTIME [go test flags] runs Go benchmarks and
# prints their result lines. One that fails or runs past 6 minutes is
# reported in their place (its output in the log), so that the rest of
# the report is still written.
benchmarks() {
	local pkg=$1 pattern=$2 benchtime=$3
	shift 3
	local out rc=0
	out=$(go test -run '^$' -bench "$pattern" -benchtime "$benchtime" -timeout 6m "$@" "$pkg" 2>&1) || rc=$?
	grep -E '^Benchmark' <<<"$out" || true
	if ((rc != 0)); then
		echo "(failed, exit $rc: $(grep -m1 -A1 -E -- '--- FAIL|panic:' <<<"$out" | sed 's/^[[:space:]]*//' | tr '\n' ' '))"
		log "benchmarks $pattern in $pkg failed:"
		printf '%s\n' "$out" >&2
	fi
}

# The scale benchmarks: Go benchmarks of the provider, the session view
# and serve under 1,000 concurrent MCP calls (see their doc comments).
if [[ -n $scale ]]; then
	log "running the scale benchmarks"
	{
		echo
		echo "## Scale: many requests at once"
		echo
		echo "Go benchmarks, run by the same command right after the table above."
		echo "\`BenchmarkAskToScreenWaiting\` times \`Ask\` until the session view (120x40) has"
		echo "drawn the request, with 0, 100 and 1,000 requests already waiting, each"
		echo "arriving at an idle screen; \`BenchmarkMemoryPerWaitingRequest\` is what one"
		echo "more waiting request costs; \`BenchmarkSessionRender\` is one frame of the"
		echo "session view with 100 waiting. \`BenchmarkServeScale\` runs \`asktui serve\` as"
		echo "its own process on a 120x40 pseudo-terminal, holds 1,000 MCP tool calls"
		echo "open at once (from 1,000 sessions, and from 10), answers half by key and"
		echo "has the clients cancel the rest: \`onscreen-*\` is tool call → on screen"
		echo "(the window title counting it), \`all-onscreen\` the time until all 1,000"
		echo "are, \`peak-RSS\` serve's VmHWM, \`serve-cpu\` its CPU time for the whole run"
		echo "and \`burst-cpu\` during the burst. \`BenchmarkSDKScale\` puts the same 1,000"
		echo "calls on a process that runs the go-sdk's streamable handlers alone (no"
		echo "asktui code, and Go's default GC where serve sets GOGC=50): \`handler-*\`"
		echo "is tool call → tool handler, the SDK's floor; \`before-RSS\` is each"
		echo "server's resident set when the calls are released."
		echo
		echo '```'
		echo "\$ go test -run '^\$' -bench 'AskToScreenWaiting|SessionRender' -benchtime 200x ./tui/internal/app"
		benchmarks ./tui/internal/app 'AskToScreenWaiting|SessionRender' 200x
		echo "\$ go test -run '^\$' -bench MemoryPerWaitingRequest -benchtime 1x ./tui/internal/app"
		benchmarks ./tui/internal/app 'MemoryPerWaitingRequest' 1x
		echo "\$ go test -run '^\$' -bench 'ServeScale/calls=1000/' -benchtime 1x ./internal/cli"
		benchmarks ./internal/cli 'ServeScale/calls=1000/' 1x
		echo "\$ go test -run '^\$' -bench 'SDKScale/calls=1000/' -benchtime 1x ./internal/cli"
		benchmarks ./internal/cli 'SDKScale/calls=1000/' 1x
		echo '```'
		echo
		echo "### Views over SSH"
		echo
		echo "\`BenchmarkSSHViews\` serves the inbox over SSH on loopback (the server and"
		echo "its clients in one process) with 1 and 8 views at 120x40 and 100 requests"
		echo "waiting; one op is a new request from \`Ask\` until every view has drawn it"
		echo "(its window title counting it). \`B/idle-view\` is the heap one idle view"
		echo "adds, server and client side together (an upper bound)."
		echo
		echo '```'
		echo "\$ go test -run '^\$' -bench SSHViews -benchtime 100x ./internal/sshserve"
		benchmarks ./internal/sshserve SSHViews 100x
		echo '```'
		echo
		echo "\`BenchmarkSSHLargestViews\` runs \`asktui serve --headless\` as its own process"
		echo "and opens eight views (the most it allows) whose clients claim the largest"
		echo "terminals every way a client can: a 10000x10000 pty, a size report of"
		echo "4096x244 typed into the session, and a second of window changes between"
		echo "10000x10000 and 200x150 as fast as the connection takes them. Each view is"
		echo "bounded to 400x150 and follows window changes at most 30 times a second;"
		echo "\`peak-RSS\` is serve's VmHWM."
		echo
		echo '```'
		echo "\$ go test -run '^\$' -bench SSHLargestViews -benchtime 1x -count 3 ./internal/cli"
		benchmarks ./internal/cli SSHLargestViews 1x -count 3
		echo '```'
		echo
		echo "Why the goal of 5 ms for 8 views is missed, and what it would take: see"
		echo "[SSH views and bubbletea's frame ticker](#ssh-views-and-bubbleteas-frame-ticker)"
		echo "below."
		echo
		echo "## ACP streaming (\`asktui run\`)"
		echo
		echo "Go benchmarks of the protocol side of \`asktui run\` (\`agent/acp\`): 10,000"
		echo "\`agent_message_chunk\` updates of 20 bytes each, as fast as the pipe takes"
		echo "them. \`BenchmarkStreamChunks\` is a whole turn against an agent in the same"
		echo "process (the acp-go-sdk on both ends: the agent's encoding is half the"
		echo "cost); \`BenchmarkClientSide\` writes pre-encoded lines straight into the"
		echo "agent's output and times the client alone: the line guard, the SDK's"
		echo "decoding and queue, the conversion to \`ConversationEvent\`s, the sink."
		echo "Drawing them is the conversation view's: \`BenchmarkStreamFrame\` is one frame"
		echo "of a streaming reply at 120x40, \`BenchmarkTranscriptScroll\` one key in a"
		echo "conversation of 10,000 entries."
		echo
		echo '```'
		echo "\$ go test -run '^\$' -bench . -benchtime 5x ./agent/acp"
		benchmarks ./agent/acp . 5x
		# Fixed counts: BenchmarkStreamFrame and BenchmarkFloodFrame time
		# only part of each op, so a time target would run them for ever.
		echo "\$ go test -run '^\$' -bench 'StreamFrame\$|TranscriptScroll' -benchtime 20x ./tui/internal/app"
		benchmarks ./tui/internal/app 'StreamFrame$|TranscriptScroll' 20x
		echo "\$ go test -run '^\$' -bench StreamFrameAfter -benchtime 200x ./tui/internal/app"
		benchmarks ./tui/internal/app StreamFrameAfter 200x
		echo "\$ go test -run '^\$' -bench FloodFrame -benchtime 5x ./tui/internal/app"
		benchmarks ./tui/internal/app FloodFrame 5x
		echo '```'
		echo
		echo "\`BenchmarkStreamFrameAfter\` is one frame of a reply that keeps streaming"
		echo "(1 KiB of new Markdown since the last frame, taken and drawn at 120x40) after"
		echo "1, 10 and 100 MB of it have streamed; \`BenchmarkFloodFrame\` applies 100,000"
		echo "small updates of every kind in frames of 1,000 and draws each: the cost per"
		echo "frame, and the heap the transcript holds after."
	} >>"$tmp/report.md"
fi

# The ACP floods: asktui run against an agent that floods it, as whole
# processes in the same pseudo-terminal (ptybench stream).
if [[ -n $stream ]]; then
	log "running the ACP floods"
	{
		echo
		echo "## ACP floods (\`asktui run\`)"
		echo
		echo "\`ptybench stream\` runs \`asktui run -- ptybench agent …\` in the same 120x40"
		echo "pseudo-terminal and terminal emulator: the agent answers a prompt with a flood,"
		echo "as fast as asktui reads. While the reply streams, the harness types a character"
		echo "into the prompt editor every 20–70 ms and times it until the editor shows it"
		echo "(then deletes it, timed the same way); it takes asktui's CPU time and the frames"
		echo "it drew (reads that changed the screen) over the turn, and its peak RSS. A second"
		echo "run presses Esc a second into the flood and times it until the transcript says"
		echo "\"turn cancelled\". CPU per frame is all of asktui's CPU over the turn (the"
		echo "protocol's decoding included) divided by the frames."
		echo
		"$tmp/ptybench" stream -asktui "$tmp/asktui"
	} >>"$tmp/report.md"
fi

# Measurements made by hand (harnesses of their own, such as
# bench/connflood) follow a marker in the report; they are kept.
keep='<!-- kept by scripts/bench.sh: measured by hand, see each section -->'
if [[ -f $out ]] && grep -qF "$keep" "$out"; then
	{
		echo
		sed -n "\|^$keep\$|,\$p" "$out"
	} >>"$tmp/report.md"
fi

mkdir -p "$(dirname "$out")"
mv "$tmp/report.md" "$out"
log "wrote $out in $((SECONDS - start)) s"

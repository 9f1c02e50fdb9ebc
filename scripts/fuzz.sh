#!/usr/bin/env bash
# Runs every fuzz target of the module, one at a time, each for a bounded
# time, and stops at the first failure, saying where Go wrote the failing
# input and how to run it again.
#
#   scripts/fuzz.sh                      # every target, 1m each
#   FUZZTIME=10s scripts/fuzz.sh         # or: scripts/fuzz.sh --time 10s
#   scripts/fuzz.sh FuzzParse FuzzRead   # only these targets
#   scripts/fuzz.sh --ci                 # a few seconds each, for CI
#   scripts/fuzz.sh --list               # the targets, as PACKAGE TARGET
#
# FUZZTIME is anything `go test -fuzztime` takes (30s, 5m, 10000x).
# FUZZMINIMIZETIME (default 10s; 1s with --ci) bounds how long Go shrinks
# each new input: Go also shrinks inputs that merely add coverage, and
# with the default of a minute one such input can eat a short run.
#
# FuzzOracle (internal/rules) runs each input the rules allow with bash,
# among stubs that record what runs (as nobody when run as root), and
# skips itself where bash is missing. At tens of milliseconds an input,
# --ci gives it a few dozen inputs and the default minute a few
# thousand; for a real search give it longer on its own:
# scripts/fuzz.sh --time 10m FuzzOracle.
#
# A target that fails with nothing but Go's "context deadline exceeded"
# (a race in Go's fuzzing coordinator at the end of -fuzztime, not a
# finding) is run once more before it counts as a failure.
#
# A failing input is written to PACKAGE/testdata/fuzz/TARGET/HASH. Fix the
# bug, then commit that file: plain `go test` runs it from then on as a
# regression seed. What the fuzzer learnt (the growing corpus) stays in
# Go's cache, under $(go env GOCACHE)/fuzz, so later runs start from it.
set -euo pipefail

cd "$(dirname "$0")/.."

log() { echo "fuzz: $*" >&2; }
die() {
	log "$*"
	exit 2
}

fuzztime=${FUZZTIME:-}
minimize=${FUZZMINIMIZETIME:-}
ci=false
list=false
only=()
while (($# > 0)); do
	case $1 in
	--ci) ci=true ;;
	-t | --time)
		(($# > 1)) || die "$1 needs a duration such as 30s"
		fuzztime=$2
		shift
		;;
	--time=*) fuzztime=${1#--time=} ;;
	--list) list=true ;;
	-h | --help)
		sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
		exit 0
		;;
	Fuzz*) only+=("$1") ;;
	*) die "unknown argument \"$1\" (see $0 --help)" ;;
	esac
	shift
done
if $ci; then
	fuzztime=${fuzztime:-3s}
	minimize=${minimize:-1s}
fi
fuzztime=${fuzztime:-1m}
minimize=${minimize:-10s}

# Every "func FuzzX(" in a _test.go file, as "./dir FuzzX", sorted.
mapfile -t targets < <(
	grep -rEo --include='*_test.go' --exclude-dir=testdata --exclude-dir=.git \
		'^func Fuzz[A-Za-z0-9_]*\(' . |
		sed -E 's|^(.*)/[^/]*_test\.go:func (Fuzz[A-Za-z0-9_]*)\($|\1 \2|' |
		sort
)
((${#targets[@]} > 0)) || die "found no fuzz targets"

if ((${#only[@]} > 0)); then
	selected=()
	for name in "${only[@]}"; do
		found=false
		for t in "${targets[@]}"; do
			if [[ ${t#* } == "$name" ]]; then
				selected+=("$t")
				found=true
			fi
		done
		$found || die "no fuzz target named $name (see $0 --list)"
	done
	targets=("${selected[@]}")
fi

if $list; then
	printf '%s\n' "${targets[@]}"
	exit 0
fi

out=$(mktemp)
trap 'rm -f "$out"' EXIT
trap 'exit 130' INT TERM

# fuzz runs one target, its output also in $out.
fuzz() {
	go test -run '^$' -fuzz "^${2}\$" -fuzztime "$fuzztime" -fuzzminimizetime "$minimize" "$1" 2>&1 | tee "$out" >&2
}

# deadline_race reports whether the last run failed only because Go's
# fuzzing coordinator lost a race with its own -fuzztime deadline: the
# target fails with a bare "context deadline exceeded" and no failing
# input, mostly on a busy machine (golang/go#56238 and its kin). It is
# not a finding.
deadline_race() {
	grep -q '^ *context deadline exceeded$' "$out" && ! grep -q 'Failing input written' "$out"
}

total=$SECONDS
for t in "${targets[@]}"; do
	pkg=${t% *}
	name=${t#* }
	log "$name in $pkg for $fuzztime"
	start=$SECONDS
	if fuzz "$pkg" "$name"; then
		log "$name: ok in $((SECONDS - start))s"
		continue
	fi
	if deadline_race; then
		log "$name: Go's fuzzer tripped over its own deadline without finding anything; running it again"
		if fuzz "$pkg" "$name"; then
			log "$name: ok in $((SECONDS - start))s"
			continue
		fi
	fi
	# go test says "Failing input written to testdata/fuzz/FuzzX/HASH",
	# relative to the package.
	input=$(sed -nE 's/.*Failing input written to (testdata\/fuzz\/[^ ]+).*/\1/p' "$out" | tail -n 1)
	if deadline_race; then
		log "$name FAILED twice with Go's own deadline race and found nothing; a busy machine? run it again"
	elif [[ -n $input ]]; then
		log "$name FAILED; the failing input is $pkg/$input"
		log "run it again with: go test -run '^$name/${input##*/}\$' $pkg"
	else
		log "$name FAILED without writing a failing input: a build error, a failing seed, or a fuzzing worker that died (see above)"
	fi
	exit 1
done
log "all ${#targets[@]} targets passed in $((SECONDS - total))s"

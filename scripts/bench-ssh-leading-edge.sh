#!/usr/bin/env bash
# Measures what the SSH views' Ask→drawn latency (BenchmarkSSHViews) would
# be if bubbletea wrote a frame as soon as it is ready after a quiet
# period, instead of at the next tick of its frame ticker: it runs the
# benchmark with the bubbletea asktui uses, then with a copy of it patched
# by docs/patches/bubbletea-leading-edge.patch (through a temporary go.work,
# so go.mod and the module cache stay as they are).
#
#   scripts/bench-ssh-leading-edge.sh              # both, 100 ops x 3 each
#   BENCHTIME=300x COUNT=5 scripts/bench-ssh-leading-edge.sh
#   scripts/bench-ssh-leading-edge.sh --patched    # only the patched run
#
# Numbers are wall-clock: run it on a quiet machine. docs/benchmarks.md
# ("Views over SSH") has the results and why they differ.
set -euo pipefail

cd "$(dirname "$0")/.."
repo=$(pwd)

benchtime=${BENCHTIME:-100x}
count=${COUNT:-3}
stock=true
case ${1:-} in
--patched) stock=false ;;
"") ;;
*)
	sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
	exit 2
	;;
esac

bench() {
	go test -run '^$' -bench SSHViews -benchtime "$benchtime" -count "$count" ./internal/sshserve
}

dir=$(go list -m -f '{{.Dir}}' charm.land/bubbletea/v2)
version=$(go list -m -f '{{.Version}}' charm.land/bubbletea/v2)
goversion=$(go list -m -f '{{.GoVersion}}')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$dir" "$tmp/bubbletea"
chmod -R u+w "$tmp/bubbletea"
(cd "$tmp/bubbletea" && patch -s -p1 <"$repo/docs/patches/bubbletea-leading-edge.patch")
cat >"$tmp/go.work" <<EOF
go $goversion

use $repo

replace charm.land/bubbletea/v2 => ./bubbletea
EOF

if $stock; then
	echo "# bubbletea $version as released"
	bench
fi
echo "# bubbletea $version with docs/patches/bubbletea-leading-edge.patch"
GOWORK=$tmp/go.work bench

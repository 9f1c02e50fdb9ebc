package cli

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// initLine is a line of GODEBUG=inittrace=1: one package's initialisers.
var initLine = regexp.MustCompile(`(?m)^init (\S+) @[0-9.]+ ms, [0-9.]+ ms clock, (\d+) bytes, (\d+) allocs$`)

// asktui's own packages' initialisers allocate next to nothing: what they
// would build (regular expressions, schemas, lexers, key maps) is built on
// first use, so that starting a process costs only what the libraries'
// initialisers do (docs/benchmarks.md). Measured on the test binary run as
// asktui --version (internal/cli itself, which runs asktui from its
// initialiser there, is not reported).
func TestPackageInitsAllocateLittle(t *testing.T) {
	cmd := asktuiCommand(t, "--version")
	cmd.Env = append(cmd.Env, "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("asktui --version: %v\n%s", err, out)
	}
	const perPackage, perPackageAllocs, total = 4 << 10, 16, 8 << 10
	seen, sum := 0, 0
	for _, m := range initLine.FindAllStringSubmatch(string(out), -1) {
		pkg := m[1]
		if !strings.HasPrefix(pkg, "github.com/asktui/asktui/") {
			continue
		}
		bytes, _ := strconv.Atoi(m[2])
		allocs, _ := strconv.Atoi(m[3])
		seen++
		sum += bytes
		if bytes > perPackage || allocs > perPackageAllocs {
			t.Errorf("%s's initialisers allocate %d bytes in %d allocations, want at most %d in %d: build it on first use",
				pkg, bytes, allocs, perPackage, perPackageAllocs)
		}
	}
	if seen < 5 {
		t.Fatalf("inittrace reported %d of asktui's packages:\n%s", seen, out)
	}
	if sum > total {
		t.Errorf("asktui's packages' initialisers allocate %d bytes in all, want at most %d", sum, total)
	}
}

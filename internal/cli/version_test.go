package cli

import (
	"bytes"
	"context"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestResolveProvenance(t *testing.T) {
	const (
		sha   = "0123456789abcdef0123456789abcdef01234567"
		other = "fedcba9876543210fedcba9876543210fedcba98"
		date  = "2026-05-01T12:00:00Z"
	)
	platform := runtime.GOOS + "/" + runtime.GOARCH
	stamped := func(version, rev, time, modified string) *debug.BuildInfo {
		info := &debug.BuildInfo{GoVersion: "go1.99.1", Main: debug.Module{Path: "github.com/asktui/asktui", Version: version}}
		for k, v := range map[string]string{"vcs.revision": rev, "vcs.time": time, "vcs.modified": modified} {
			if v != "" {
				info.Settings = append(info.Settings, debug.BuildSetting{Key: k, Value: v})
			}
		}
		return info
	}
	tests := []struct {
		name  string
		build Build
		info  *debug.BuildInfo
		want  provenance
	}{{
		name:  "release build: the ldflags, and the stamps of the same commit",
		build: Build{Version: "v1.2.3", Commit: sha, Date: date},
		info:  stamped("v0.0.0-20260501120000-0123456789ab", sha, "2026-05-01T12:00:01Z", "false"),
		want:  provenance{Version: "v1.2.3", Commit: sha, Date: date, Go: "go1.99.1", Platform: platform},
	}, {
		name:  "release build of a work tree with changes",
		build: Build{Version: "v1.2.4-next", Commit: sha, Date: date},
		info:  stamped("", sha, date, "true"),
		want:  provenance{Version: "v1.2.4-next", Commit: sha, Modified: true, Date: date, Go: "go1.99.1", Platform: platform},
	}, {
		name:  "ldflags naming another commit than the stamps",
		build: Build{Version: "v1.2.3", Commit: sha},
		info:  stamped("", other, date, "true"),
		want:  provenance{Version: "v1.2.3", Commit: sha, Go: "go1.99.1", Platform: platform},
	}, {
		name: "go install …@v1.2.3: a module version and no VCS",
		info: stamped("v1.2.3", "", "", ""),
		want: provenance{Version: "v1.2.3", Go: "go1.99.1", Platform: platform},
	}, {
		name: "go build in a clone with changes",
		info: stamped("v0.0.0-20260501120000-0123456789ab+dirty", sha, date, "true"),
		want: provenance{Version: "v0.0.0-20260501120000-0123456789ab+dirty", Commit: sha, Modified: true, Date: date, Go: "go1.99.1", Platform: platform},
	}, {
		name: "go build with -buildvcs=false",
		info: stamped("(devel)", "", "", ""),
		want: provenance{Version: "devel", Go: "go1.99.1", Platform: platform},
	}, {
		name: "no build info",
		want: provenance{Version: "devel", Go: runtime.Version(), Platform: platform},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := resolveProvenance(tt.build, tt.info); got != tt.want {
				t.Errorf("resolveProvenance =\n%+v, want\n%+v", got, tt.want)
			}
		})
	}
}

func TestProvenanceText(t *testing.T) {
	tests := []struct {
		name string
		p    provenance
		want string
	}{{
		name: "release",
		p: provenance{Version: "v1.2.3", Commit: "0123456789abcdef0123456789abcdef01234567",
			Date: "2026-05-01T12:00:00Z", Go: "go1.26.8", Platform: "linux/amd64"},
		want: "asktui version v1.2.3\n" +
			"commit  0123456789abcdef0123456789abcdef01234567\n" +
			"date    2026-05-01T12:00:00Z\n" +
			"go      go1.26.8 linux/amd64\n",
	}, {
		name: "modified tree",
		p: provenance{Version: "v0.0.0-20260501120000-0123456789ab+dirty", Commit: "0123456789abcdef0123456789abcdef01234567",
			Modified: true, Date: "2026-05-01T12:00:00Z", Go: "go1.26.8", Platform: "darwin/arm64"},
		want: "asktui version v0.0.0-20260501120000-0123456789ab+dirty\n" +
			"commit  0123456789abcdef0123456789abcdef01234567 (modified)\n" +
			"date    2026-05-01T12:00:00Z\n" +
			"go      go1.26.8 darwin/arm64\n",
	}, {
		name: "go install: no commit, no date",
		p:    provenance{Version: "v1.2.3", Go: "go1.26.8", Platform: "linux/arm64"},
		want: "asktui version v1.2.3\n" +
			"go      go1.26.8 linux/arm64\n",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.String(); got != tt.want {
				t.Errorf("String() =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestVersionFlag runs `asktui --version` and -v as a release build
// would: the whole text of the provenance, on standard output.
func TestVersionFlag(t *testing.T) {
	b := Build{Version: "v1.2.3", Commit: "0123456789abcdef0123456789abcdef01234567", Date: "2026-05-01T12:00:00Z"}
	want := b.provenance().String()
	for _, flag := range []string{"--version", "-v"} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{flag}, env{
			stdout:  &stdout,
			stderr:  &stderr,
			environ: []string{"TERM=dumb"},
			openTTY: mustNotOpenTTY(t),
			build:   b,
		})
		if code != 0 || stdout.String() != want || stderr.Len() != 0 {
			t.Errorf("asktui %s = exit %d, stdout\n%s\nstderr %q; want exit 0 and\n%s", flag, code, stdout.String(), stderr.String(), want)
		}
	}
	if !strings.HasPrefix(want, "asktui version v1.2.3\ncommit  0123456789abcdef0123456789abcdef01234567") {
		t.Errorf("provenance of a release build =\n%s, want its version and commit first", want)
	}
}

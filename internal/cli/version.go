package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Build is the release's build metadata, set in package main by the
// release build's -ldflags. Empty fields fall back to what the Go
// toolchain recorded.
type Build struct {
	// Version is the release version, such as "v1.2.3".
	Version string
	// Commit is the full revision the release was built from.
	Commit string
	// Date is when Commit was made, in RFC 3339 form. The release build
	// sets the commit's date rather than the build's, so that building a
	// commit twice gives the same binary.
	Date string
}

// provenance is where a binary came from, as `asktui --version` reports
// it: people paste it into bug reports.
type provenance struct {
	// Version is "v1.2.3" for a release or `go install …@v1.2.3`, a
	// pseudo-version for a build in a clone, and "devel" when nothing
	// recorded one.
	Version string
	// Commit is the full revision; empty for `go install …@version`,
	// which builds from the module zip, without version control.
	Commit string
	// Modified reports uncommitted changes in the tree Commit was built
	// from.
	Modified bool
	// Date is Commit's date, RFC 3339; empty when Commit is.
	Date string
	// Go is the toolchain that built the binary ("go1.26.8"), and
	// Platform its GOOS/GOARCH.
	Go, Platform string
}

// provenance combines the release's -ldflags with what the Go toolchain
// recorded in the binary.
func (b Build) provenance() provenance {
	info, _ := debug.ReadBuildInfo()
	return resolveProvenance(b, info)
}

// version returns the version to report: the one set with -ldflags, else
// what the Go toolchain recorded (a module version for `go install
// …@v1.2.3`), else "devel".
func (b Build) version() string { return b.provenance().Version }

// resolveProvenance is [Build.provenance] with the build info given (nil
// when the binary has none). The -ldflags win; the toolchain's VCS stamps
// fill in a commit and date the release build did not set.
func resolveProvenance(b Build, info *debug.BuildInfo) provenance {
	p := provenance{
		Version:  b.Version,
		Commit:   b.Commit,
		Date:     b.Date,
		Go:       runtime.Version(),
		Platform: runtime.GOOS + "/" + runtime.GOARCH,
	}
	if info == nil {
		p.Version = orDefault(p.Version, "devel")
		return p
	}
	if p.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		p.Version = info.Main.Version
	}
	if info.GoVersion != "" {
		p.Go = info.GoVersion
	}
	vcs := map[string]string{}
	for _, s := range info.Settings {
		vcs[s.Key] = s.Value
	}
	if p.Commit == "" {
		p.Commit = vcs["vcs.revision"]
	}
	// The stamps describe the tree that was built; they say nothing of a
	// commit set by hand that differs from it.
	if p.Commit != "" && p.Commit == vcs["vcs.revision"] {
		p.Modified = vcs["vcs.modified"] == "true"
		if p.Date == "" {
			p.Date = vcs["vcs.time"]
		}
	}
	p.Version = orDefault(p.Version, "devel")
	return p
}

// String is the text of `asktui --version`: the version on the first
// line, as `asktui version v1.2.3`, then one "name  value" line each for
// the commit, its date and the toolchain, leaving out what is unknown.
func (p provenance) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "asktui version %s\n", p.Version)
	if p.Commit != "" {
		commit := p.Commit
		if p.Modified {
			commit += " (modified)"
		}
		fmt.Fprintf(&sb, "commit  %s\n", commit)
	}
	if p.Date != "" {
		fmt.Fprintf(&sb, "date    %s\n", p.Date)
	}
	fmt.Fprintf(&sb, "go      %s %s\n", p.Go, p.Platform)
	return sb.String()
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Command asktui puts the questions AI agents ask in front of a human, in
// the terminal, and hands the answers back as JSON.
//
// The command line lives in internal/cli; this file only hands it the
// release's build metadata and exits with its code.
package main

import (
	"os"

	"github.com/asktui/asktui/internal/cli"
)

// Build metadata, set by the release build (.goreleaser.yaml); a build
// without them reports what the Go toolchain recorded:
//
//	go build -ldflags "-X main.version=v1.2.3 -X main.commit=$(git rev-parse HEAD) -X main.date=2026-05-01T12:00:00Z"
var (
	version string
	commit  string
	date    string
)

func main() {
	os.Exit(cli.Main(cli.Build{Version: version, Commit: commit, Date: date}))
}

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

// Build metadata, set by the release build:
//
//	go build -ldflags "-X main.version=v1.2.3 -X main.commit=abc1234"
var (
	version string
	commit  string
)

func main() {
	os.Exit(cli.Main(cli.Build{Version: version, Commit: commit}))
}

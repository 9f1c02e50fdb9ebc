// Command asktui puts the questions AI agents ask in front of a human, in
// the terminal, and hands the answers back as JSON.
//
// This file wires the process: build metadata, signals and the exit code.
// The commands live in root.go and ask.go; exit codes and error reporting
// in exit.go.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	tea "charm.land/bubbletea/v2"
)

// Build metadata, set by the release build:
//
//	go build -ldflags "-X main.version=v1.2.3 -X main.commit=abc1234"
var (
	version string
	commit  string
)

func main() {
	ctx, stop := notifySignals(context.Background())
	code := run(ctx, os.Args[1:], env{
		stdin:   os.Stdin,
		stdout:  os.Stdout,
		stderr:  os.Stderr,
		environ: os.Environ(),
		openTTY: tea.OpenTTY,
	})
	stop()
	os.Exit(code)
}

// notifySignals returns a context that ends on SIGINT, SIGTERM or SIGHUP
// with a [signalError] naming the signal as its cause, so the exit code can
// tell them apart (130, 143 and 129). It is signal.NotifyContext plus the
// cause. SIGHUP is what closing the terminal (or its tmux pane) sends; left
// to its default action it would kill asktui in raw mode on the alternate
// screen, with its waiting requests unanswered.
func notifySignals(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		select {
		case s := <-ch:
			cancel(signalError{sig: s})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		cancel(nil)
	}
}

// buildInfo returns the version and commit to report: the ones set with
// -ldflags, else what the Go toolchain recorded (a module version for
// `go install …@v1.2.3`, the VCS revision for a build in a clone).
func buildInfo() (ver, sha string) {
	ver, sha = version, commit
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return orDefault(ver, "devel"), sha
	}
	if ver == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		ver = info.Main.Version
	}
	if sha == "" {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" {
				sha = s.Value
			}
		}
	}
	return orDefault(ver, "devel"), sha
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

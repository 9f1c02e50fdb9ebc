// Package cli is asktui's command line: the ask, serve, demo, history and
// mcp commands, their flags and environment, the exit codes and the
// reporting of failures. It wires the other packages together: requests
// from agent/mcp, agent/socket, agent/script or a file go through an
// interaction.Service to the tui program, and answers come back out.
//
// main.go only calls [Main]; tests run the whole command line in process
// with their own streams, environment and terminal.
package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"
)

// Main runs asktui with the process's arguments, standard streams,
// environment and controlling terminal, and returns the exit code.
func Main(b Build) int {
	ctx, stop := notifySignals(context.Background())
	defer stop()
	return run(ctx, os.Args[1:], env{
		stdin:   os.Stdin,
		stdout:  os.Stdout,
		stderr:  os.Stderr,
		environ: os.Environ(),
		openTTY: tea.OpenTTY,
		build:   b,
	})
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

package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/charmbracelet/x/term"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/jsonl"
	"github.com/asktui/asktui/tui"
)

// Exit codes of asktui. They follow gum's where gum has one, so shell
// scripts can branch on them; the README lists them.
const (
	exitAnswered    = 0   // the human answered (skipping a question is an answer)
	exitDeclined    = 1   // ASK_DECLINED: the human declined
	exitUsage       = 2   // INVALID_REQUEST, EMPTY_QUESTIONS, or a usage error
	exitNoTTY       = 3   // NO_TTY: no terminal to ask on
	exitFailure     = 4   // anything else: PROVIDER_CLOSED, INTERNAL, …
	exitAgent       = 5   // AGENT_EXITED, AGENT_PROTOCOL: an agent of asktui run failed
	exitAgentAuth   = 6   // AGENT_AUTH: the agent wants the human to sign in first
	exitPermission  = 77  // PERMISSION_DENIED: a file asktui may not write, as sysexits(3)'s EX_NOPERM
	exitNotFound    = 127 // AGENT_NOT_FOUND: no such agent, or not installed, as sh(1)
	exitTimeout     = 124 // ASK_TIMEOUT: --timeout elapsed, as timeout(1)
	exitHangup      = 129 // SIGHUP, the terminal closed: 128 + SIGHUP
	exitInterrupted = 130 // Ctrl+C, SIGINT, or ASK_ABORTED: 128 + SIGINT
	exitTerminated  = 143 // SIGTERM: 128 + SIGTERM
)

// exitCodes are the exit codes with what each means, in Markdown, in
// order: README.md's table of exit codes is generated from them, and a
// test fails when the two differ, or when a code is missing here. The
// meaning names the error codes that exit with the code (exitCode).
var exitCodes = []struct {
	code    int
	meaning string
}{
	{exitAnswered, "answered (skipped questions count as answered)"},
	{exitDeclined, "declined (`ASK_DECLINED`)"},
	{exitUsage, "invalid request or usage (`INVALID_REQUEST`, `EMPTY_QUESTIONS`, `INVALID_RULE`, bad flags)"},
	{exitNoTTY, "no terminal to ask on (`NO_TTY`); asktui fails at once instead of waiting"},
	{exitFailure, "any other failure (`PROVIDER_CLOSED`, `NO_PROVIDER`, `UNTRUSTED`, `ADDRESS_IN_USE`, `INTERNAL`, …)"},
	{exitAgent, "`asktui run`: an agent exited or broke the protocol (`AGENT_EXITED`, `AGENT_PROTOCOL`), at start, in a turn or later"},
	{exitAgentAuth, "`asktui run`: an agent wants you to sign in first (`AGENT_AUTH`), at start or in a turn"},
	{exitPermission, "`asktui setup`: a file it would write is read-only, or the system refused the write (`PERMISSION_DENIED`); as sysexits(3)'s `EX_NOPERM`"},
	{exitTimeout, "`--timeout` elapsed (`ASK_TIMEOUT`), with `--connect` too"},
	{exitNotFound, "`asktui run`: no such agent, or it is not installed (`AGENT_NOT_FOUND`)"},
	{exitHangup, "hung up: the terminal closed, or SIGHUP (`ASK_ABORTED`)"},
	{exitInterrupted, "interrupted: ctrl+c in the UI while a question waits, in every command (`PROVIDER_CLOSED` for the questions left), or SIGINT to `ask` (`ASK_ABORTED`), also while the request is read from standard input. ctrl+c with nothing waiting (closing an idle `serve`, `run` or `demo`) exits 0, as a signal that stops `serve`, `run` or `demo` does"},
	{exitTerminated, "terminated by SIGTERM (`ASK_ABORTED`), also while the request is read from standard input"},
}

// signalError is the cause of a context ended by a signal.
type signalError struct{ sig os.Signal }

func (e signalError) Error() string { return e.sig.String() + " signal received" }

func (e signalError) exitCode() int {
	switch e.sig {
	case syscall.SIGTERM:
		return exitTerminated
	case syscall.SIGHUP:
		return exitHangup
	}
	return exitInterrupted
}

// interruptedErr is the error of a view quit with ctrl+c while questions
// waited: they failed with PROVIDER_CLOSED, and the exit is 130.
func interruptedErr(err error) error {
	return interaction.WrapError(interaction.CodeProviderClosed, err,
		"interrupted: ctrl+c was pressed while questions waited; they were closed unanswered")
}

// exitCode maps the outcome of a run to the process exit code. An error
// without an *interaction.Error is one of cobra's usage errors.
func exitCode(err error) int {
	if err == nil {
		return exitAnswered
	}
	var sig signalError
	if errors.As(err, &sig) {
		return sig.exitCode()
	}
	if errors.Is(err, tui.ErrInterrupted) {
		return exitInterrupted
	}
	switch interaction.CodeOf(err) {
	case "":
		return exitUsage
	case interaction.CodeDeclined:
		return exitDeclined
	case interaction.CodeInvalidRequest, interaction.CodeEmptyQuestions, interaction.CodeInvalidRule:
		return exitUsage
	case interaction.CodeNoTTY:
		return exitNoTTY
	case interaction.CodeTimeout:
		return exitTimeout
	case interaction.CodeAborted:
		return exitInterrupted
	case interaction.CodeAgentExited, interaction.CodeAgentProtocol:
		return exitAgent
	case interaction.CodeAgentAuth:
		return exitAgentAuth
	case interaction.CodeAgentNotFound:
		return exitNotFound
	case interaction.CodePermission:
		return exitPermission
	default:
		return exitFailure
	}
}

// coded returns the *interaction.Error that err carries, or, for a usage
// error, an INVALID_REQUEST error with its text: the invocation is the
// request when it is built from flags.
func coded(err error) *interaction.Error {
	var e *interaction.Error
	if errors.As(err, &e) && e != nil {
		return e
	}
	return interaction.WrapError(interaction.CodeInvalidRequest, err,
		"%v; run asktui --help for usage", err)
}

// reportError writes e to w as one line: "asktui: CODE: message" for a
// person at a terminal, or {"error":{"code":…,"message":…}} otherwise.
func reportError(w io.Writer, e *interaction.Error, terminal bool) {
	if terminal {
		_, _ = fmt.Fprintf(w, "asktui: %s\n", e.Error())
		return
	}
	_ = jsonl.Write(w, interaction.ErrorEnvelope{Error: e})
}

// isTerminal reports whether w is a terminal.
func isTerminal(w any) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(f.Fd())
}

// listenError explains why serve cannot listen on addr: a port that
// another program holds is ADDRESS_IN_USE, with what to do about it, not
// an INTERNAL failure.
func listenError(addr string, err error) error {
	if errors.Is(err, syscall.EADDRINUSE) {
		return interaction.WrapError(interaction.CodeAddressInUse, err,
			"%s is already in use, perhaps by another asktui serve: stop that one, or listen elsewhere with --listen 127.0.0.1:PORT (port 0 picks a free one)", addr)
	}
	return interaction.WrapError(interaction.CodeInternal, err, "cannot listen on %s: %v; choose another address with --listen", addr, err)
}

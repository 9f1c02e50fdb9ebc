// Package compat is asktui's compatibility suite: its tests drive the
// real agents and CLIs asktui works with (claude-agent-acp with Claude
// Code, Gemini CLI, and Codex when installed), installed from npm at
// pinned versions by scripts/compat/install.sh, against the mock model
// servers of internal/compat/mockmodel. Each test runs asktui as a
// process on a pseudo-terminal: `asktui run` with the agent over ACP, or
// `asktui serve` as the inbox of the CLI's hooks and MCP calls.
//
// The tests skip themselves when the packages are not installed, and fail
// instead under ASKTUI_CI when node is present; they skip under -race
// (asktui runs as a process of its own, built once). The package holds no
// code but its tests.
//
// For reading what a new version does: ASKTUI_COMPAT_DUMP=DIR keeps every
// request the mocks saw, their replies, asktui run's log and the ACP
// messages each way; ASKTUI_COMPAT_QUIT=1 sends a failed test's asktui
// SIGQUIT, for its goroutines; ASKTUI_COMPAT_ASKTUI=PATH tests another
// asktui build.
package compat

// Package acp drives coding agents over the Agent Client Protocol
// (agentclientprotocol.com), for `asktui run`: it starts an agent as a
// subprocess speaking JSON-RPC on its standard input and output (through
// github.com/coder/acp-go-sdk), and turns the conversation into the
// protocol-neutral vocabulary of package interaction: a [Launcher] that
// starts [conversation.Conversation]s whose events go to an
// [conversation.Sink].
//
// Everything the agent asks of the human goes through one
// [Options.Asker] (the interaction.Service), so it waits in the same inbox
// and lands in the same history as every other source's questions:
//
//   - session/request_permission becomes a single-select question whose
//     options are the agent's, with the tool call's diff or command as the
//     question's detail, and no "Other" (the protocol has no place for
//     text). Declining or skipping answers "cancelled": a reject option is
//     never picked for the human.
//   - elicitation/create in form mode becomes one request with a question
//     per field; a choice and its free-text companion (the adapters'
//     "Other", "custom answer" and note fields) are one question whose
//     "Other" and notes go to the companion, and a field that cannot carry
//     text offers no "Other". Answers that do not fit the schema are asked
//     again, and never sent. URL mode shows the URL with warnings and
//     never opens it.
//
// The client advertises form and URL elicitation only: no fs/* and no
// terminal/*, so agents use their own tools for files and commands. The
// output of a command that an agent reports anyway (codex-acp sends it in
// the tool call's _meta) is shown with the tool call.
//
// An agent that exits, speaks anything but JSON-RPC on its standard
// output, or does not answer in time ends its conversation with a coded
// error (AGENT_EXITED, AGENT_PROTOCOL); its standard error is kept in a
// small ring and its tail quoted in the error. The package never reads the
// environment and never writes to the terminal.
//
// [ServeScenario] is the other end: a scripted demo scenario (package
// agent/script) played as an ACP agent on standard input and output, for
// `asktui demo --acp` and the end-to-end tests.
package acp

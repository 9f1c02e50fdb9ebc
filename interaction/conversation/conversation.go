// Package conversation is the vocabulary of a conversation with an agent
// that the human drives: prompts go out, the agent's work streams back as
// [Event]s, and a turn can be cancelled. A user interface draws it without
// knowing the protocol behind it (ACP, for `asktui run`); a [Launcher]
// starts conversations by name.
//
// The questions, permission requests and elicitations an agent sends
// during a conversation are not part of this vocabulary: they are ordinary
// interaction.Requests put through the interaction.Service, their Agent.ID
// the conversation's ID, so they wait in the same inbox as every other
// source's. Like interaction, this package imports only the standard
// library and interaction itself.
package conversation

import (
	"context"
	"time"

	"github.com/asktui/asktui/interaction"
)

// Conversation is a live session with an agent. Its methods are safe for
// concurrent use; events arrive through the [Sink] given when
// it was started.
type Conversation interface {
	// Info describes the conversation as it stands.
	Info() Info
	// Prompt sends the human's prompt and waits for the turn to end. It
	// returns why the turn stopped. The agent's work during the turn
	// arrives as events meanwhile. Only one turn runs at a time: a Prompt
	// during a turn fails with interaction.CodeBusy.
	Prompt(ctx context.Context, parts []PromptPart) (StopReason, error)
	// Cancel asks the agent to stop the turn in progress. Every question
	// the agent asked during the turn that is still waiting is withdrawn
	// (its request's context ends), and the turn ends with
	// [StopCancelled]. Cancel without a turn does nothing.
	Cancel()
	// SetMode switches the agent's mode (one of Info().Modes).
	SetMode(ctx context.Context, id string) error
	// Close ends the conversation and the agent behind it. It is safe to
	// call more than once.
	Close() error
}

// Info describes a conversation.
type Info struct {
	// ID identifies the conversation for as long as it lives; the agent's
	// questions carry it as their Agent.ID.
	ID string
	// Agent is who the human talks to; Agent.ID equals ID.
	Agent interaction.Agent
	// Session is the agent's own id for the session, for resuming it.
	Session string
	// Title is the session's title, when the agent gave one.
	Title string
	// Cwd is the directory the agent works in.
	Cwd string
	// Modes are the agent's modes, and Mode the current one's ID.
	Modes []Mode
	Mode  string
	// Commands are the agent's slash commands.
	Commands []Command
	// Attach says how a file named in a prompt reaches the agent.
	Attach AttachKind
}

// AttachKind says how a file mentioned in a prompt is passed on.
type AttachKind string

// The ways a file reaches the agent.
const (
	// AttachLink passes a link to the file; the agent reads it itself.
	AttachLink AttachKind = "link"
	// AttachEmbed passes the file's content with the prompt.
	AttachEmbed AttachKind = "embed"
)

// Mode is one of an agent's modes (ask, architect, code…).
type Mode struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// Command is one of an agent's slash commands.
type Command struct {
	// Name is the command without its slash.
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Hint describes the input the command takes, if any.
	Hint string `json:"hint,omitempty"`
}

// PromptPart is one part of a prompt: text, or a file (given by path,
// attached as the conversation's Attach says).
type PromptPart struct {
	Text string `json:"text,omitempty"`
	// Path is a file to attach, absolute or relative to the
	// conversation's Cwd.
	Path string `json:"path,omitempty"`
}

// StopReason says why a turn ended.
type StopReason string

// The reasons a turn ends.
const (
	StopEndTurn         StopReason = "end_turn"
	StopMaxTokens       StopReason = "max_tokens"
	StopMaxTurnRequests StopReason = "max_turn_requests"
	StopRefusal         StopReason = "refusal"
	StopCancelled       StopReason = "cancelled"
)

// EventKind says what a [Event] reports.
type EventKind string

// The kinds of conversation event.
const (
	// EventStarted: the conversation is ready; Info describes it.
	EventStarted EventKind = "started"
	// EventUserChunk, EventMessageChunk and EventThoughtChunk: a piece of
	// the human's message (replayed history), of the agent's message, or
	// of its thinking, in Text. A new MessageID starts a new message.
	EventUserChunk    EventKind = "user_chunk"
	EventMessageChunk EventKind = "message_chunk"
	EventThoughtChunk EventKind = "thought_chunk"
	// EventToolCall: a tool call started or changed; Tool is its whole
	// state so far (replace the previous one with the same ID).
	EventToolCall EventKind = "tool_call"
	// EventPlan: the agent's plan, whole, in Plan.
	EventPlan EventKind = "plan"
	// EventInfo: Info changed (title, mode, modes, commands).
	EventInfo EventKind = "info"
	// EventUsage: Usage changed.
	EventUsage EventKind = "usage"
	// EventNotice: a line of the launcher's own about the conversation,
	// in Text: the session's id and how to reopen it, a tool of asktui's
	// the agent could not take and what to do about it.
	EventNotice EventKind = "notice"
	// EventTurnEnded: the turn ended with Stop (or Err).
	EventTurnEnded EventKind = "turn_ended"
	// EventEnded: the conversation is over (Err says why when the agent
	// failed: it exited, or spoke broken protocol).
	EventEnded EventKind = "ended"
)

// Event is one thing that happened in a conversation.
type Event struct {
	// Conversation is the conversation's ID.
	Conversation string
	// Kind says what happened; the fields it names are set.
	Kind      EventKind
	Text      string
	MessageID string
	Tool      *ToolCall
	Plan      []PlanEntry
	Info      *Info
	Usage     *Usage
	Stop      StopReason
	// Err is a coded error (interaction.CodeAgentExited, interaction.CodeAgentProtocol…).
	Err error
	// Time is when it happened.
	Time time.Time
}

// Sink receives a conversation's events in order. Event must
// not block: a user interface queues them for its next frame.
type Sink interface {
	ConversationEvent(Event)
}

// Pacer is a [Sink] that can slow a conversation down. A conversation
// whose agent sends faster than the sink takes its events calls Pace from
// time to time, from a goroutine that may wait and outside any lock, and
// reads nothing more from the agent until it returns: the agent waits for
// the screen instead of queues growing. Pace returns at once while the
// sink keeps up, and when ctx ends.
type Pacer interface {
	Pace(ctx context.Context)
}

// ToolKind classifies a tool call.
type ToolKind string

// The kinds of tool call.
const (
	ToolRead    ToolKind = "read"
	ToolEdit    ToolKind = "edit"
	ToolDelete  ToolKind = "delete"
	ToolMove    ToolKind = "move"
	ToolSearch  ToolKind = "search"
	ToolExecute ToolKind = "execute"
	ToolThink   ToolKind = "think"
	ToolFetch   ToolKind = "fetch"
	ToolOther   ToolKind = "other"
)

// ToolStatus is where a tool call stands.
type ToolStatus string

// The statuses of a tool call.
const (
	ToolPending    ToolStatus = "pending"
	ToolInProgress ToolStatus = "in_progress"
	ToolCompleted  ToolStatus = "completed"
	ToolFailed     ToolStatus = "failed"
)

// ToolCall is a tool call's state.
type ToolCall struct {
	ID        string
	Title     string
	Kind      ToolKind
	Status    ToolStatus
	Locations []Location
	// Input is the call's raw input, as JSON, for display.
	Input string
	// Content is what the call shows: text, diffs, terminal output.
	Content []ToolContent
}

// Location is a file (and line) a tool call touches.
type Location struct {
	Path string
	// Line is 1-based; 0 means the whole file.
	Line int
}

// ToolContent is one piece of a tool call's content; exactly one field is
// set.
type ToolContent struct {
	// Text is text (or Markdown) the tool produced.
	Text string
	// Diff is a change to a file.
	Diff *Diff
	// Terminal is a terminal's output.
	Terminal *TerminalOutput
}

// Diff is a change to one file.
type Diff struct {
	Path string
	// Old is the file's text before, nil for a new file.
	Old *string
	New string
}

// TerminalOutput is what a command printed.
type TerminalOutput struct {
	Command string
	Output  string
	// Exited reports that the command has ended, with ExitCode.
	Exited   bool
	ExitCode int
}

// PlanEntry is one step of an agent's plan.
type PlanEntry struct {
	Content  string
	Priority string // high, medium, low
	Status   string // pending, in_progress, completed
}

// Usage is how much of its context and budget the session has used.
type Usage struct {
	// Used and Size are tokens of the context window.
	Used, Size int
	// Cost is what the session cost so far, in Currency, when known.
	Cost     float64
	Currency string
}

// AgentChoice is an agent a [Launcher] can start.
type AgentChoice struct {
	// Name is what the human types: `asktui run NAME`.
	Name string
	// Description says what it is and what it runs.
	Description string
	// Missing says why it cannot start here (its executable is not
	// installed, say); empty when it can.
	Missing string
	// NoResume says why its past sessions cannot be listed and resumed
	// (it said so when it started); empty when they can, or when that is
	// not known yet.
	NoResume string
}

// PastSession is a session an agent can resume.
type PastSession struct {
	Session string
	Title   string
	Cwd     string
	Updated time.Time
}

// Launcher starts conversations with agents by name. The terminal UI uses
// it to start another agent from inside the session view and to resume
// past sessions; the protocol lives behind it.
type Launcher interface {
	// Agents lists the agents it can start.
	Agents() []AgentChoice
	// Start starts a conversation with the agent named name, resuming
	// session resume when it is not empty. Events go to sink.
	Start(ctx context.Context, name, resume string, sink Sink) (Conversation, error)
	// Sessions lists the agent's past sessions, newest first, or fails
	// with interaction.CodeUnsupported when the agent cannot list them.
	Sessions(ctx context.Context, name string) ([]PastSession, error)
}

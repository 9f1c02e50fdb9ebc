// Package chat is the conversation view's room (asktui run): one agent
// the human drives (Chat), what it said and did (its Transcript, which
// keeps to a memory budget and spills the rest to disk), the prompt
// written to it (its Prompt), and the agent picker (Picker). The panes
// ask the program for what they need through their hosts (PromptHost,
// TranscriptHost, PickerHost); the program reaches them through the
// methods exported here.
package chat

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/request"
	"github.com/asktui/asktui/tui/internal/ui"
)

// Chat is one agent the human drives (asktui run): what it said and did,
// as transcript items, and the prompt being written to it. It holds the
// protocol-neutral conversation.Conversation the prompts go to; the
// events come in through the program's link (Apply).
type Chat struct {
	id   string
	conv conversation.Conversation // nil until started (and after it ended)
	info conversation.Info
	name string // display name, safe to draw

	items []*convItem
	tools map[string]*convItem // tool calls by id

	turn    bool      // a turn is in progress
	started time.Time // when the turn began
	usage   *conversation.Usage
	ended   error // why the conversation ended, when it has
	over    bool
	failed  bool // it never started: ended says why

	// What the transcript holds in memory (see budget.go), and where the
	// rest goes.
	spill    *Spill
	resident int64 // bytes of the items held
	texts    int   // text items so far, for the names of their spill files

	editor Prompt     // the prompt being written to it
	view   Transcript // its transcript on screen
}

// convItemKind says what a transcript item is.
type convItemKind int

const (
	itemUser convItemKind = iota
	itemMessage
	itemThought
	itemTool
	itemPlan
	itemNotice  // a turn that stopped early, an error, a mode switch, a rule's answer
	itemAsk     // a question of the agent's and what became of it
	itemSpilled // earlier items, kept in the spill file (budget.go)
)

// convItem is one item of a transcript. Text items grow as chunks stream
// in; the rendering caches (see transcript.go) follow.
type convItem struct {
	kind      convItemKind
	msgID     string
	text      textStream
	tool      *conversation.ToolCall
	plan      []conversation.PlanEntry
	ask       *askRecord
	failed    bool // a notice that is an error
	expanded  bool // show the whole tool output, or the thought
	finished  bool // no more chunks will come
	rendering itemRender
	weight    int64 // what it counted for in chat.resident
	spilled   *spilledItems
}

// New is the conversation id, its long texts kept in sp; its prompt
// editor and transcript ask the program through the hosts given.
func New(id string, sp *Spill, com *ui.Common, prompt PromptHost, transcript TranscriptHost) *Chat {
	c := &Chat{id: id, name: "agent", tools: map[string]*convItem{}, spill: sp}
	c.editor = newPrompt(com, prompt)
	c.view = Transcript{com: com, host: transcript}
	c.editor.c, c.view.c = c, c
	return c
}

// ID is the conversation's id, as its events name it.
func (c *Chat) ID() string { return c.id }

// Name is the agent's display name, safe to draw.
func (c *Chat) Name() string { return c.name }

// Info is the conversation's description, as its agent last gave it.
func (c *Chat) Info() conversation.Info { return c.info }

// Conv is the conversation the prompts go to: nil until it started.
func (c *Chat) Conv() conversation.Conversation { return c.conv }

// Usage is what the agent last said of its context window, or nil.
func (c *Chat) Usage() *conversation.Usage { return c.usage }

// Working reports whether a turn is in progress.
func (c *Chat) Working() bool { return c.turn }

// Over reports whether the conversation has ended (or never started).
func (c *Chat) Over() bool { return c.over }

// Failed reports whether its agent never started.
func (c *Chat) Failed() bool { return c.failed }

// Len is the number of items the transcript holds.
func (c *Chat) Len() int { return len(c.items) }

// Prompt is the prompt editor writing to the conversation.
func (c *Chat) Prompt() *Prompt { return &c.editor }

// Transcript is the conversation's transcript on screen.
func (c *Chat) Transcript() *Transcript { return &c.view }

// Started binds the conversation the launcher started to this chat.
func (c *Chat) Started(conv conversation.Conversation) {
	c.conv = conv
	c.setInfo(conv.Info())
}

// StartFailed makes this chat an agent that could not start: agent is
// its name, err why; its transcript says so, its editor reads nothing.
func (c *Chat) StartFailed(agent string, err error) {
	if n := cell.DisplayLine(agent); strings.TrimSpace(n) != "" {
		c.name = n
	}
	c.failed = true
	c.end(err)
	c.notice(cell.Sanitize(err.Error()), true)
}

// TakePrompt takes the prompt written from the editor into the
// transcript (which follows the newest again) and returns it as the
// agent gets it: its text, and each file it mentions with @.
func (c *Chat) TakePrompt() []conversation.PromptPart {
	text := c.editor.take()
	c.userPrompt(text)
	c.view.scroll = 0
	return promptParts(text, c.info.Cwd)
}

// BeginTurn marks a turn in progress, begun at now.
func (c *Chat) BeginTurn(now time.Time) { c.turn, c.started = true, now }

// Note adds a line of the program's to the transcript: a rule's answer
// to the agent's permission, say.
func (c *Chat) Note(text string) {
	c.finishText()
	c.notice(text, false)
}

// Restyle gives the editor and the transcript st's look.
func (c *Chat) Restyle(st *styles.Styles) {
	c.editor.restyle(st)
	for _, it := range c.items {
		it.rendering.stale()
	}
}

// Apply takes one event into the conversation's state.
func (c *Chat) Apply(e conversation.Event) {
	switch e.Kind {
	case conversation.EventStarted, conversation.EventInfo:
		if e.Info != nil {
			c.setInfo(*e.Info)
		}
	case conversation.EventUserChunk:
		c.chunk(itemUser, e.MessageID, e.Text)
	case conversation.EventMessageChunk:
		c.chunk(itemMessage, e.MessageID, e.Text)
	case conversation.EventThoughtChunk:
		c.chunk(itemThought, e.MessageID, e.Text)
	case conversation.EventToolCall:
		if e.Tool == nil {
			return
		}
		c.finishText()
		t := *e.Tool
		if it, ok := c.tools[t.ID]; ok {
			it.tool = &t
			it.rendering.stale()
			c.account(it)
			return
		}
		it := &convItem{kind: itemTool, tool: &t}
		c.tools[t.ID] = it
		c.add(it)
	case conversation.EventPlan:
		c.finishText()
		// One plan per turn: a new one replaces the last, if it is the
		// newest item; otherwise it is shown again where the work is.
		if n := len(c.items); n > 0 && c.items[n-1].kind == itemPlan {
			c.items[n-1].plan = e.Plan
			c.items[n-1].rendering.stale()
			c.account(c.items[n-1])
			return
		}
		c.add(&convItem{kind: itemPlan, plan: e.Plan})
	case conversation.EventNotice:
		c.finishText()
		c.notice(cell.Sanitize(e.Text), false)
	case conversation.EventUsage:
		c.usage = e.Usage
	case conversation.EventTurnEnded:
		c.finishText()
		if !c.turn {
			return // the turn's end was shown already
		}
		c.turn = false
		switch {
		case e.Err != nil:
			c.notice(cell.Sanitize(e.Err.Error()), true)
		case e.Stop == conversation.StopCancelled:
			c.notice("turn cancelled", false)
		case e.Stop != "" && e.Stop != conversation.StopEndTurn:
			c.notice("turn ended: "+strings.ReplaceAll(string(e.Stop), "_", " "), false)
		}
	case conversation.EventEnded:
		c.finishText()
		c.turn = false
		c.end(e.Err)
		switch {
		case e.Err == nil:
			c.notice(c.name+" has ended", false)
		case !c.saidLast(cell.Sanitize(e.Err.Error())):
			// (A turn that ended with the conversation said it already.)
			c.notice(cell.Sanitize(e.Err.Error()), true)
		}
	}
}

// status says what the conversation is doing, for the line under its
// editor: spinner is the spinner's frame, now the clock's time.
func (c *Chat) status(spinner string, now time.Time, k keys.Map) string {
	switch {
	case c.failed:
		return c.name + " did not start · " + keys.Name(k.Global.Agents) + " starts an agent"
	case c.over:
		return c.name + " has ended · " + keys.Name(k.Global.Agents) + " starts an agent"
	case c.conv == nil:
		return "starting " + c.name + "…"
	case c.turn:
		return spinner + " " + c.name + " is working · " + cell.Age(now.Sub(c.started)) + " · " + keys.Name(k.Prompt.Cancel) + " cancels"
	}
	s := keys.Name(k.Prompt.Send) + " sends · " + keys.Name(k.Prompt.NewLine) + " new line"
	if len(c.info.Modes) > 1 {
		s = "mode " + modeName(c.info, c.info.Mode) + " (" + keys.Name(k.Prompt.Mode) + ") · " + s
	}
	return s
}

// saidLast reports whether the newest item is the failure text.
func (c *Chat) saidLast(text string) bool {
	n := len(c.items)
	return n > 0 && c.items[n-1].kind == itemNotice && c.items[n-1].failed && c.items[n-1].text.String() == text
}

// setInfo takes the conversation's description.
func (c *Chat) setInfo(info conversation.Info) {
	if c.info.Mode != "" && info.Mode != c.info.Mode {
		c.notice("mode: "+modeName(info, info.Mode), false)
	}
	c.info = info
	if n := cell.DisplayLine(info.Agent.DisplayName()); strings.TrimSpace(n) != "" {
		c.name = n
	}
	c.editor.setCommands(info.Commands)
}

// modeName is the name of mode id, or id itself.
func modeName(info conversation.Info, id string) string {
	for _, m := range info.Modes {
		if m.ID == id {
			return cell.SanitizeLine(m.Name)
		}
	}
	return cell.SanitizeLine(id)
}

// chunk appends a piece of streamed text, to the last item of its kind
// and message, or to a new item.
func (c *Chat) chunk(kind convItemKind, msgID, text string) {
	var it *convItem
	if n := len(c.items); n > 0 {
		last := c.items[n-1]
		if last.kind == kind && !last.finished && (msgID == "" || last.msgID == msgID) {
			it = last
		}
	}
	if it == nil {
		c.finishText()
		it = &convItem{kind: kind, msgID: msgID}
		c.add(it)
	}
	c.write(it, text)
	it.rendering.grew()
	c.account(it)
}

// write appends text to a text item; once the item outgrows what the
// transcript shows, the whole of it goes to a spill file of its own.
func (c *Chat) write(it *convItem, text string) {
	t := &it.text
	if c.spill == nil || t.file != "" || t.Len()+int64(len(text)) <= maxShownText {
		t.WriteString(text, c.spillTo(t))
		return
	}
	// The text outgrows what is shown: up to the limit as usual, then the
	// whole so far goes to a file, and from then on every piece.
	cut := min(len(text), int(max(maxShownText-t.Len(), 0)))
	t.WriteString(text[:cut], nil)
	c.texts++
	t.file = spillName(c.id, it.kind, c.texts)
	t.filePath, t.spill = c.spill.path(t.file), c.spill
	t.fileOff = c.spill.write(t.file, t.String())
	t.WriteString(text[cut:], c.spillTo(t))
}

// spillTo is where a text item's pieces go once it has a spill file.
func (c *Chat) spillTo(t *textStream) func(string) {
	if c.spill == nil || t.file == "" {
		return nil
	}
	return func(s string) { c.spill.write(t.file, s) }
}

// spillName is the file of a conversation's nth long text.
func spillName(conv string, kind convItemKind, n int) string {
	what := "message"
	switch kind {
	case itemThought:
		what = "thinking"
	case itemUser:
		what = "prompt"
	default: // a message
	}
	return fileSafe(conv) + "-" + what + "-" + strconv.Itoa(n) + ".md"
}

// fileSafe is s as a file name: letters, digits, '.', '-' and '_'.
func fileSafe(s string) string {
	b := []byte(s)
	for i, r := range b {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
		default:
			b[i] = '_'
		}
	}
	if len(b) > 64 {
		b = b[:64]
	}
	return string(b)
}

// finishText marks the streaming text item done: it is rendered as
// Markdown from now on.
func (c *Chat) finishText() {
	if n := len(c.items); n > 0 {
		if last := c.items[n-1]; !last.finished && last.kind != itemTool && last.kind != itemPlan {
			last.finished = true
			last.rendering.grew() // the complete blocks stay rendered
		}
	}
}

// add appends an item.
func (c *Chat) add(it *convItem) {
	c.items = append(c.items, it)
	c.account(it)
}

// notice adds a line of the conversation's own (not the agent's).
func (c *Chat) notice(text string, failed bool) {
	it := &convItem{kind: itemNotice, failed: failed, finished: true}
	it.text.WriteString(text, nil)
	c.add(it)
}

// askRecord is a question of the conversation's agent (a permission, an
// elicitation, an ask_user_question call) and what became of it, as a
// chat keeps it: each question asked, then the answer given, or how it
// ended unanswered.
type askRecord struct {
	id        uint64 // the request's
	questions []askedQuestion
	answers   []string // each question's answer once answered, sanitized, one line each
	end       askEnd
	why       string // how it ended, when that needs saying: "declined", "withdrawn: …", "from ssh bob@host"
}

// askedQuestion is one question as the panel showed it: its header (one
// line) and its text (Markdown), both sanitized.
type askedQuestion struct{ header, text string }

// askEnd is what became of a question.
type askEnd int

const (
	askWaiting askEnd = iota
	askAnswered
	askDeclined
	askWithdrawn // withdrawn, timed out, settled elsewhere, the window closed
)

// size is about what the record holds, for the transcript's budget.
func (a *askRecord) size() int64 {
	n := len(a.why)
	for _, q := range a.questions {
		n += len(q.header) + len(q.text)
	}
	for _, s := range a.answers {
		n += len(s)
	}
	return int64(n)
}

// askForm is the record as plain text, the way the spill file keeps it.
func askForm(a *askRecord) string {
	var b strings.Builder
	for i, q := range a.questions {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("?")
		if q.header != "" {
			b.WriteString(" " + q.header + "\n ")
		}
		b.WriteString(" " + q.text)
		if a.end == askAnswered && i < len(a.answers) {
			b.WriteString("\n  ✓ " + a.answers[i])
		}
	}
	switch a.end {
	case askWaiting:
		b.WriteString("\n  … waiting for your answer")
	case askAnswered:
		if a.why != "" {
			b.WriteString("\n  answered " + a.why)
		}
	case askDeclined:
		b.WriteString("\n  ✗ " + a.why)
	case askWithdrawn:
		b.WriteString("\n  ⊘ " + a.why)
	}
	return b.String()
}

// Asked adds request r, which the conversation's agent asked, to the
// transcript, waiting for its answer.
func (c *Chat) Asked(r *request.Request) {
	c.finishText()
	rec := &askRecord{id: r.ID, questions: make([]askedQuestion, len(r.Questions))}
	for i, q := range r.Questions {
		rec.questions[i] = askedQuestion{header: q.Header, text: q.Text}
	}
	c.add(&convItem{kind: itemAsk, finished: true, ask: rec})
}

// AskEnded records what became of request r, settled as s: here when
// this view answered or declined it. A question the transcript no longer
// holds (spilled, or asked before the conversation was known) is left
// as it is.
func (c *Chat) AskEnded(r *request.Request, s inbox.Settlement, here bool) {
	var it *convItem
	for i := len(c.items) - 1; i >= 0; i-- {
		if a := c.items[i].ask; a != nil && a.id == r.ID {
			it = c.items[i]
			break
		}
	}
	if it == nil || it.ask.end != askWaiting {
		return
	}
	a := it.ask
	from := ""
	if !here && strings.TrimSpace(s.By) != "" {
		from = "from " + cell.DisplayLine(s.By)
	}
	switch code := interaction.CodeOf(s.Err); {
	case s.Err == nil:
		a.end, a.why = askAnswered, from
		a.answers = make([]string, len(s.Answer.Answers))
		for i, item := range s.Answer.Answers {
			a.answers[i] = request.ItemText(item)
			if note := strings.TrimSpace(item.Note); note != "" {
				a.answers[i] += " · “" + cell.SanitizeLine(note) + "”"
			}
		}
	case code == interaction.CodeDeclined:
		a.end, a.why = askDeclined, strings.TrimSpace("declined "+from)
	case code == interaction.CodeTimeout:
		a.end, a.why = askWithdrawn, "timed out"
	case code == interaction.CodeSettledElsewhere:
		a.end, a.why = askWithdrawn, "answered in the agent's own terminal"
	case code == interaction.CodeProviderClosed:
		a.end, a.why = askWithdrawn, "the window closed"
	default:
		a.end, a.why = askWithdrawn, "withdrawn"
		var e *interaction.Error
		if errors.As(s.Err, &e) && strings.TrimSpace(e.Message) != "" {
			a.why += ": " + ansi.Truncate(cell.SanitizeLine(cell.FirstLine(e.Message)), 160, "…")
		}
	}
	it.rendering.stale()
	c.account(it)
}

// userPrompt records the prompt the human sent.
func (c *Chat) userPrompt(text string) {
	c.finishText()
	it := &convItem{kind: itemUser, finished: true}
	c.write(it, text)
	c.add(it)
}

// end marks the conversation over (err says why, nil for a clean end):
// its editor reads nothing from now on (Prompt.Actions and Typist),
// so it offers nothing either, and its text area loses the cursor; the
// status line says ctrl+l starts an agent.
func (c *Chat) end(err error) {
	c.over, c.ended = true, err
	c.editor.ta.Placeholder = ""
	c.editor.ta.Blur()
}

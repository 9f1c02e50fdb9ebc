package tui

import (
	"strings"
	"time"

	"github.com/asktui/asktui/interaction/conversation"
)

// conversation is one agent the human drives (asktui run): what it said and
// did, as transcript items, and the prompt being written to it. It holds
// the protocol-neutral conversation.Conversation the prompts go to; the
// events come in through the program's link.
type chat struct {
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

	editor promptEditor
	view   transcript
}

// convItemKind says what a transcript item is.
type convItemKind int

const (
	itemUser convItemKind = iota
	itemMessage
	itemThought
	itemTool
	itemPlan
	itemNotice // a turn that stopped early, an error, a mode switch
)

// convItem is one item of a transcript. Text items grow as chunks stream
// in; the rendering caches (see transcript.go) follow.
type convItem struct {
	kind      convItemKind
	msgID     string
	text      strings.Builder
	tool      *conversation.ToolCall
	plan      []conversation.PlanEntry
	failed    bool // a notice that is an error
	expanded  bool // show the whole tool output, or the thought
	finished  bool // no more chunks will come
	rendering itemRender
}

func newConversation(id string) *chat {
	c := &chat{id: id, name: "agent", tools: map[string]*convItem{}}
	c.editor = newPromptEditor()
	return c
}

// apply takes one event into the conversation's state.
func (c *chat) apply(e conversation.Event) {
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
			return
		}
		it := &convItem{kind: itemTool, tool: &t}
		c.tools[t.ID] = it
		c.items = append(c.items, it)
	case conversation.EventPlan:
		c.finishText()
		// One plan per turn: a new one replaces the last, if it is the
		// newest item; otherwise it is shown again where the work is.
		if n := len(c.items); n > 0 && c.items[n-1].kind == itemPlan {
			c.items[n-1].plan = e.Plan
			c.items[n-1].rendering.stale()
			return
		}
		c.items = append(c.items, &convItem{kind: itemPlan, plan: e.Plan})
	case conversation.EventNotice:
		c.finishText()
		c.notice(Sanitize(e.Text), false)
	case conversation.EventUsage:
		c.usage = e.Usage
	case conversation.EventTurnEnded:
		c.finishText()
		c.turn = false
		switch {
		case e.Err != nil:
			c.notice(Sanitize(e.Err.Error()), true)
		case e.Stop == conversation.StopCancelled:
			c.notice("turn cancelled", false)
		case e.Stop != "" && e.Stop != conversation.StopEndTurn:
			c.notice("turn ended: "+strings.ReplaceAll(string(e.Stop), "_", " "), false)
		}
	case conversation.EventEnded:
		c.finishText()
		c.turn, c.over, c.ended = false, true, e.Err
		if e.Err != nil {
			c.notice(Sanitize(e.Err.Error()), true)
		} else {
			c.notice(c.name+" has ended", false)
		}
	}
}

// setInfo takes the conversation's description.
func (c *chat) setInfo(info conversation.Info) {
	if c.info.Mode != "" && info.Mode != c.info.Mode {
		c.notice("mode: "+modeName(info, info.Mode), false)
	}
	c.info = info
	if n := displayLine(info.Agent.DisplayName()); strings.TrimSpace(n) != "" {
		c.name = n
	}
	c.editor.setCommands(info.Commands)
}

// modeName is the name of mode id, or id itself.
func modeName(info conversation.Info, id string) string {
	for _, m := range info.Modes {
		if m.ID == id {
			return SanitizeLine(m.Name)
		}
	}
	return SanitizeLine(id)
}

// chunk appends a piece of streamed text, to the last item of its kind
// and message, or to a new item.
func (c *chat) chunk(kind convItemKind, msgID, text string) {
	if n := len(c.items); n > 0 {
		last := c.items[n-1]
		if last.kind == kind && !last.finished && (msgID == "" || last.msgID == msgID) {
			last.text.WriteString(text)
			last.rendering.grew()
			return
		}
	}
	c.finishText()
	it := &convItem{kind: kind, msgID: msgID}
	it.text.WriteString(text)
	c.items = append(c.items, it)
}

// finishText marks the streaming text item done: it is rendered as
// Markdown from now on.
func (c *chat) finishText() {
	if n := len(c.items); n > 0 {
		if last := c.items[n-1]; !last.finished && last.kind != itemTool && last.kind != itemPlan {
			last.finished = true
			last.rendering.grew() // the complete blocks stay rendered
		}
	}
}

// notice adds a line of the conversation's own (not the agent's).
func (c *chat) notice(text string, failed bool) {
	it := &convItem{kind: itemNotice, failed: failed, finished: true}
	it.text.WriteString(text)
	c.items = append(c.items, it)
}

// userPrompt records the prompt the human sent.
func (c *chat) userPrompt(text string) {
	c.finishText()
	it := &convItem{kind: itemUser, finished: true}
	it.text.WriteString(text)
	c.items = append(c.items, it)
}

package chat

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/ui"
)

// Sizes of the prompt editor and its completions.
const (
	maxEditorRows  = 6
	maxCompletions = 8
	maxListedFiles = 20_000
	maxHistory     = 200
)

// completion is what the completions under the prompt complete.
type completion int

const (
	completionNone  completion = iota // no completions shown
	completionFiles                   // files of the working directory, after "@"
	completionCmds                    // the agent's commands, after "/"
)

// Prompt is where the human writes to an agent: a multi-line text
// area with the prompts sent before (↑ on an empty editor), file mentions
// completed after "@" from the working directory, and the agent's slash
// commands completed after "/".
type Prompt struct {
	ui.Box
	com      *ui.Common
	host     PromptHost
	c        *Chat // the conversation it writes to
	ta       textarea.Model
	history  []string
	hist     int    // position while browsing the history; len(history) when not
	stash    string // what was typed before browsing
	commands []conversation.Command
	files    []string // the working directory's files, once listed
	listing  bool     // a listing is on its way

	pop struct {
		kind   completion
		items  []string
		descs  []string
		cursor int
	}
}

// PromptHost is what a prompt editor asks of the program, which sends
// the prompts and knows what waits.
type PromptHost interface {
	ui.Globals
	// Send sends the prompt written to the conversation shown.
	Send() tea.Cmd
	// Cancel asks the conversation shown to stop its turn.
	Cancel() tea.Cmd
	// NextMode switches the conversation shown to its next mode.
	NextMode() tea.Cmd
	// Questions is the number of questions waiting, for the status line.
	Questions() int
	// Spinner is the spinner's frame while the agent works.
	Spinner() string
}

var _ ui.Pane = (*Prompt)(nil)

// FilesMsg brings the working directory's files to the prompt editor of
// conversation Conv, for its @ mentions: the program hands it to that
// chat's editor (Prompt.SetFiles).
type FilesMsg struct {
	Conv  string   // the conversation's id
	Files []string // paths relative to its working directory
}

func newPrompt(com *ui.Common, host PromptHost) Prompt {
	newLine := com.Keys.Prompt.NewLine
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Prompt = ""
	ta.Placeholder = "Write a prompt · @ mentions a file · / runs a command"
	ta.CharLimit = 0
	ta.MaxHeight = 0
	ta.SetHeight(1)
	ta.KeyMap.InsertNewline.SetKeys(newLine.Keys()...)
	s := ta.Styles()
	s.Cursor.Blink = false
	ta.SetStyles(s)
	return Prompt{com: com, host: host, ta: ta}
}

// setCommands takes the agent's slash commands.
func (e *Prompt) setCommands(cs []conversation.Command) { e.commands = cs }

// restyle gives the editor asktui's look.
func (e *Prompt) restyle(st *styles.Styles) {
	s := e.ta.Styles()
	s.Focused.Text = st.Question.Text.UnsetBold()
	s.Focused.Placeholder = st.Option.Description
	s.Focused.CursorLine = s.Focused.Text
	s.Blurred = s.Focused
	s.Cursor.Color = st.Option.Cursor.GetForeground()
	s.Cursor.Blink = false
	e.ta.SetStyles(s)
}

// listFiles lists dir's files for @ mentions, skipping version control,
// dependencies and hidden directories, at most maxListedFiles.
func listFiles(conv, dir string) tea.Cmd {
	return func() tea.Msg {
		var files []string
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || len(files) >= maxListedFiles {
				return filepath.SkipDir
			}
			name := d.Name()
			if d.IsDir() {
				if p != dir && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor") {
					return filepath.SkipDir
				}
				return nil
			}
			if rel, err := filepath.Rel(dir, p); err == nil {
				files = append(files, filepath.ToSlash(rel))
			}
			return nil
		})
		return FilesMsg{Conv: conv, Files: files}
	}
}

// value is the prompt as typed so far, trimmed.
func (e *Prompt) value() string { return strings.TrimSpace(e.ta.Value()) }

// Value is the prompt as typed so far.
func (e *Prompt) Value() string { return e.ta.Value() }

// HasCursor reports whether its text area has the cursor (and reads
// keys): never once its agent ended.
func (e *Prompt) HasCursor() bool { return e.ta.Focused() }

// canBrowse reports whether ↑ (dir -1) or ↓ (+1) moves through the
// prompts sent before rather than the lines of the prompt: ↑ on an empty
// editor, or on the first line while browsing; ↓ on the last line while
// browsing.
func (e *Prompt) canBrowse(dir int) bool {
	if dir < 0 {
		return len(e.history) > 0 && (e.ta.Value() == "" || e.hist < len(e.history)) && e.ta.Line() == 0
	}
	return e.hist < len(e.history) && e.ta.Line() == e.ta.LineCount()-1
}

// typeKey edits the text with a key no action took, and opens, narrows or
// closes the completions; it returns a file listing when "@" wants one.
func (e *Prompt) typeKey(msg ui.KeyMsg, conv, cwd string) tea.Cmd {
	var cmd tea.Cmd
	e.ta, cmd = e.ta.Update(msg)
	e.hist = len(e.history)
	e.grow()
	if c := e.complete(); c && e.files == nil && !e.listing && cwd != "" {
		e.listing = true
		cmd = tea.Batch(cmd, listFiles(conv, cwd))
	}
	return cmd
}

// paste inserts pasted text.
func (e *Prompt) paste(msg tea.PasteMsg) tea.Cmd {
	var cmd tea.Cmd
	e.ta, cmd = e.ta.Update(msg)
	e.grow()
	return cmd
}

// grow sizes the text area to its content, up to maxEditorRows.
func (e *Prompt) grow() {
	e.ta.SetHeight(min(max(e.ta.LineCount(), 1), maxEditorRows))
}

// browse moves through the history: -1 older, +1 newer.
func (e *Prompt) browse(delta int) {
	if len(e.history) == 0 {
		return
	}
	if e.hist == len(e.history) {
		e.stash = e.ta.Value()
	}
	e.hist = min(max(e.hist+delta, 0), len(e.history))
	if e.hist == len(e.history) {
		e.ta.SetValue(e.stash)
	} else {
		e.ta.SetValue(e.history[e.hist])
	}
	e.grow()
}

// take returns the prompt and clears the editor, keeping it in the
// history.
func (e *Prompt) take() string {
	v := e.ta.Value()
	e.ta.Reset()
	e.grow()
	e.pop.kind = completionNone
	if t := strings.TrimSpace(v); t != "" && (len(e.history) == 0 || e.history[len(e.history)-1] != v) {
		e.history = append(e.history, v)
		if len(e.history) > maxHistory {
			e.history = e.history[1:]
		}
	}
	e.hist = len(e.history)
	return v
}

// lastToken is the text after the last space or newline.
func (e *Prompt) lastToken() string {
	v := e.ta.Value()
	i := strings.LastIndexFunc(v, unicode.IsSpace)
	return v[i+1:]
}

// complete opens, narrows or closes the completions for what is being
// typed; it reports whether files are wanted.
func (e *Prompt) complete() bool {
	tok := e.lastToken()
	v := e.ta.Value()
	e.pop.kind = completionNone
	switch {
	case strings.HasPrefix(tok, "@"):
		query := tok[1:]
		if e.files == nil {
			e.pop.kind, e.pop.items, e.pop.descs = completionFiles, nil, nil
			return true
		}
		e.pop.kind = completionFiles
		e.pop.items = fuzzyTop(e.files, query, maxCompletions)
		e.pop.descs = nil
	case strings.HasPrefix(v, "/") && !strings.ContainsFunc(v, unicode.IsSpace) && len(e.commands) > 0:
		e.pop.kind = completionCmds
		e.pop.items, e.pop.descs = nil, nil
		for _, c := range e.commands {
			if strings.HasPrefix(c.Name, v[1:]) {
				e.pop.items = append(e.pop.items, cell.SanitizeLine(c.Name))
				e.pop.descs = append(e.pop.descs, cell.SanitizeLine(c.Description))
			}
		}
	}
	if e.pop.kind != completionNone && len(e.pop.items) == 0 && e.files != nil {
		e.pop.kind = completionNone
	}
	e.pop.cursor = min(e.pop.cursor, max(len(e.pop.items)-1, 0))
	return e.pop.kind == completionFiles
}

// SetFiles takes the listing and refreshes the completions.
func (e *Prompt) SetFiles(files []string) {
	e.files, e.listing = files, false
	if e.files == nil {
		e.files = []string{}
	}
	e.complete()
}

// accept puts the completion under the cursor in place of the token.
func (e *Prompt) accept() {
	if e.pop.cursor >= len(e.pop.items) {
		e.pop.kind = completionNone
		return
	}
	choice := e.pop.items[e.pop.cursor]
	v := e.ta.Value()
	tok := e.lastToken()
	prefix := v[:len(v)-len(tok)]
	switch e.pop.kind {
	case completionFiles:
		e.ta.SetValue(prefix + "@" + choice + " ")
	case completionCmds:
		e.ta.SetValue("/" + choice + " ")
	case completionNone:
	}
	e.pop.kind = completionNone
	e.grow()
}

// parts turns a prompt into its parts: the text, and each file it
// mentions with @ that exists under cwd.
func promptParts(text, cwd string) []conversation.PromptPart {
	parts := []conversation.PromptPart{{Text: text}}
	seen := map[string]bool{}
	for _, f := range strings.Fields(text) {
		if !strings.HasPrefix(f, "@") || len(f) < 2 {
			continue
		}
		p := strings.TrimRight(f[1:], ".,;:!?)")
		if seen[p] {
			continue
		}
		full := p
		if !filepath.IsAbs(full) {
			full = filepath.Join(cwd, p)
		}
		if st, err := os.Stat(full); err == nil && !st.IsDir() {
			seen[p] = true
			parts = append(parts, conversation.PromptPart{Path: p})
		}
	}
	return parts
}

// fuzzyTop returns the n items of items that best match query (its runes
// in order, case-insensitive), best first: consecutive runes and matches
// in the file's name count more, shorter paths win ties.
func fuzzyTop(items []string, query string, n int) []string {
	type scored struct {
		s     string
		score int
	}
	q := []rune(strings.ToLower(query))
	var best []scored
	for _, it := range items {
		sc, ok := fuzzyScore(it, q)
		if !ok {
			continue
		}
		best = append(best, scored{it, sc})
	}
	slices.SortStableFunc(best, func(a, b scored) int {
		if a.score != b.score {
			return b.score - a.score
		}
		return len(a.s) - len(b.s)
	})
	out := make([]string, 0, n)
	for i := 0; i < len(best) && i < n; i++ {
		out = append(out, best[i].s)
	}
	return out
}

func fuzzyScore(s string, q []rune) (int, bool) {
	if len(q) == 0 {
		return 0, true
	}
	lower := []rune(strings.ToLower(s))
	base := strings.LastIndexByte(s, '/') + 1
	score, qi, prev := 0, 0, -2
	for i, r := range lower {
		if qi < len(q) && r == q[qi] {
			score++
			if i == prev+1 {
				score += 3
			}
			if i >= base {
				score += 2
			}
			if i == base || i == 0 {
				score += 4
			}
			prev = i
			qi++
		}
	}
	return score, qi == len(q)
}

// SetSize gives the editor its width; its height is its own (rows), as
// its text grows up to maxEditorRows.
func (e *Prompt) SetSize(width, height int) {
	e.Box.SetSize(width, height)
	e.ta.SetWidth(max(width-4, 4))
}

// Rows is the rows the editor draws: the completions while it has the
// keys, the framed text area and the status line.
func (e *Prompt) Rows() int {
	n := e.ta.Height() + 2 + 1
	if e.pop.kind != completionNone && e.live() {
		n += max(len(e.pop.items), 1)
	}
	return n
}

// live reports whether the editor takes keys: it has the focus and its
// agent has not ended.
func (e *Prompt) live() bool { return e.Focused() && !e.c.over }

// Focus gives the editor the keys, and its text area the cursor unless
// its agent ended (it reads nothing then).
func (e *Prompt) Focus() tea.Cmd {
	e.Box.Focus()
	if e.c.over {
		return nil
	}
	return e.ta.Focus()
}

// Blur takes the keys away.
func (e *Prompt) Blur() {
	e.Box.Blur()
	e.ta.Blur()
}

// View draws the editor: the completions above (when open), the framed
// text area, and the status line.
func (e *Prompt) View() string {
	st, width := e.com.Styles, e.Width()
	focused := e.live()
	var out []string
	cs := st.Conversation
	if e.pop.kind != completionNone && focused {
		if len(e.pop.items) == 0 {
			out = append(out, cs.Status.Render("  listing files…"))
		}
		for i, it := range e.pop.items {
			line := "  " + it
			if i < len(e.pop.descs) && e.pop.descs[i] != "" {
				line += "  " + st.Option.Description.Render(e.pop.descs[i])
			}
			line = ansi.Truncate(line, width, "…")
			if i == e.pop.cursor {
				line = cs.Selected.Render(ansi.Strip(cell.FitLine(line, width)))
			}
			out = append(out, line)
		}
	}
	box := cs.Editor
	if focused {
		box = box.BorderForeground(st.Option.Cursor.GetForeground())
	}
	out = append(out, box.Width(width).Render(e.ta.View()))
	if status := e.status(); status != "" {
		out = append(out, cs.Status.Render(ansi.Truncate(status, width, "…")))
	}
	return strings.Join(out, "\n")
}

// status is the line under the editor: the questions waiting, and what
// the agent is doing.
func (e *Prompt) status() string {
	status := e.c.status(e.host.Spinner(), e.com.Now(), e.com.Keys)
	if n := e.host.Questions(); n > 0 {
		status = cell.Plural(n, "question waits", "questions wait") + " · " + keys.Name(e.com.Keys.Global.Inbox) + " answers · " + status
	}
	return status
}

// Actions are the editor's keys, with its completions' when open. An
// agent that ended or never started reads nothing: its status line says
// ctrl+l starts one.
func (e *Prompt) Actions() []ui.Action {
	c := e.c
	if c.over {
		return e.host.Globals(false)
	}
	k := e.com.Keys.Prompt
	var out []ui.Action
	if e.pop.kind != completionNone {
		out = append(out,
			ui.Move(k.Complete, func(ui.KeyMsg) tea.Cmd { e.accept(); return nil }).InBar().In("Completions"),
			ui.Move(k.CompleteUp, func(ui.KeyMsg) tea.Cmd { e.pop.cursor = max(e.pop.cursor-1, 0); return nil }).InBar(k.Choose).In("Completions"),
			ui.Move(k.CompleteDown, func(ui.KeyMsg) tea.Cmd { e.pop.cursor = min(e.pop.cursor+1, max(len(e.pop.items)-1, 0)); return nil }).In("Completions"),
			ui.Move(k.Dismiss, func(ui.KeyMsg) tea.Cmd { e.pop.kind = completionNone; return nil }).InBar().In("Completions"),
		)
	}
	if e.value() != "" {
		out = append(out, ui.Answer(k.Send, func(ui.KeyMsg) tea.Cmd { return e.host.Send() }).InBar().In("Prompt"))
	}
	if c.turn && e.pop.kind == completionNone {
		out = append(out, ui.Move(k.Cancel, func(ui.KeyMsg) tea.Cmd { return e.host.Cancel() }).InBar().In("Prompt"))
	}
	out = append(out, ui.Answer(k.NewLine, func(msg ui.KeyMsg) tea.Cmd { return e.typeKey(msg, c.id, c.info.Cwd) }).InBar().In("Prompt"))
	if e.canBrowse(-1) {
		out = append(out, ui.Move(k.HistoryPrev, func(ui.KeyMsg) tea.Cmd { e.browse(-1); return nil }).In("Prompt"))
	}
	if e.canBrowse(+1) {
		out = append(out, ui.Move(k.HistoryNext, func(ui.KeyMsg) tea.Cmd { e.browse(+1); return nil }).In("Prompt"))
	}
	if len(c.info.Modes) > 1 && c.conv != nil {
		out = append(out, ui.Move(k.Mode, func(ui.KeyMsg) tea.Cmd { return e.host.NextMode() }).InBar().In("Prompt"))
	}
	out = append(out, ui.Move(k.Mention, ui.Nothing).InBar().In("Prompt"))
	if len(c.info.Commands) > 0 {
		out = append(out, ui.Move(k.Command, ui.Nothing).InBar().In("Prompt"))
	}
	return append(out, e.host.Globals(true)...)
}

// Typist types a key no action took, or a paste, into the prompt; nil
// once its agent ended.
func (e *Prompt) Typist() func(tea.Msg) tea.Cmd {
	c := e.c
	if c.over {
		return nil
	}
	return func(msg tea.Msg) tea.Cmd {
		switch msg := msg.(type) {
		case tea.PasteMsg:
			return e.paste(msg)
		case ui.KeyMsg:
			return e.typeKey(msg, c.id, c.info.Cwd)
		}
		return nil
	}
}

// ShortHelp implements help.KeyMap.
func (e *Prompt) ShortHelp() []key.Binding { return ui.ShortHelp(e) }

// FullHelp implements help.KeyMap.
func (e *Prompt) FullHelp() [][]key.Binding { return ui.FullHelp(e) }

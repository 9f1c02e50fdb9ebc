package app

// The screen is composed from blocks of known size: every line of a block
// is cut or padded to exactly its width once, so blocks join side by side
// and one above the other by plain concatenation. lipgloss's Width, Height
// and Join measure every line of the whole screen again at each step, and
// bubbletea draws after every message, so that measuring was most of each
// frame (see BenchmarkSessionRender).

// frame is the geometry of the screen's body: where the question panel,
// the inbox and the activity pane go.
type frame struct {
	wide           bool // session columns side by side
	panelW, panelH int  // the question panel
	sideW          int  // the left column (wide session)
	inboxRows      int  // rows of the inbox block, title included (0 = hidden)
	activityRows   int  // rows of the activity pane under the panel (narrow session)
}

// Session layout: side by side from wideFrom columns, the question panel
// a little over half the width, between minPanelW and maxPanelW (longer
// lines read badly), and the activity column the rest, at least minSideW
// (tool calls stay readable).
const (
	wideFrom  = 120
	minPanelW = 60
	maxPanelW = 96
	minSideW  = 48
)

// screenLayout is the geometry of the screen the layout pass decided: the
// width inside the margins, the rows above the body and the body's, and
// where each part of the body goes.
type screenLayout struct {
	width  int // inside the one-column margins
	top    int // the title bar, and a gap under it when rows are spare
	bodyH  int // between the title bar and the status line
	status int // the status line's rows: see statusRows
	frame  frame
	run    runFrame
}

// runFrame is the geometry of the conversation view's body.
type runFrame struct {
	tabs      bool // a row of the agents, when several run
	questions bool // the question panel is at the bottom, else the prompt editor
	inboxRows int  // the inbox above the panel
	panelH    int  // the panel
	midRows   int  // the transcript
}

// helpHeight is the help bar: one line, always (the panes' keys that do
// not fit are left out, and the ? overlay lists them all), so the body's
// height never depends on which keys act.
const helpHeight = 1

// statusRows is the rows of the notice line above the help bar: one,
// except on a short screen (as chromeTop counts it) while there is no
// notice, where every row goes to the body before anything in it is cut.
func (m *Model) statusRows() int {
	if m.notice == "" && !m.embedded && m.height < 16 {
		return 0
	}
	return 1
}

// relayout is the layout pass: from the screen's size and what is shown
// it decides the size of every pane and gives each its size (SetSize).
// settle runs it once an Update has changed anything; View only draws.
// Every pane that may be asked about its layout (the question panel's
// scroll keys, say) is sized, drawn or not.
func (m *Model) relayout() {
	w := m.contentWidth()
	l := screenLayout{width: w, top: m.chromeTop(), status: m.statusRows()}
	l.bodyH = m.bodyHeight(w, l.top, l.status)
	m.lay = l
	m.bar.SetSize(w, helpHeight)
	m.overlay.SetSize(w, l.bodyH)
	switch m.kind {
	case kindRun:
		m.layoutRun(w, l.bodyH)
	case kindSession:
		m.layoutSession(w, l.bodyH)
	default: // kindOneShot
		m.qpane.SetSize(w, l.bodyH)
		m.idle.SetSize(w, l.bodyH)
	}
}

// chromeTop is the rows above the body: the title bar, and a gap under it
// when the screen has rows to spare.
func (m *Model) chromeTop() int {
	if m.embedded || m.height < 16 {
		return 1
	}
	return 2
}

// bodyHeight is the rows between the title bar and the status line. An
// inline prompt takes only the rows its panel needs.
func (m *Model) bodyHeight(w, top, status int) int {
	if m.embedded {
		return max(m.height, 1)
	}
	h := max(m.height-top-status-helpHeight, 1)
	if m.inline && m.kind == kindOneShot {
		if m.activeRequest() != nil && m.mode() != modeHelp {
			return min(h, max(m.qpane.Need(w, h), 1))
		}
		return min(h, 4)
	}
	return h
}

// layoutSession lays out the session view: the question panel, the
// inbox and the activity side by side when wide, stacked when narrow; a
// pane with the focus on a narrow screen takes the whole body.
func (m *Model) layoutSession(w, h int) {
	f := m.frameFor(w, h)
	m.lay.frame = f
	m.qpane.SetSize(f.panelW, f.panelH)
	m.rulebook.SetSize(w, h)
	mode := m.mode()
	switch {
	case mode == modePast && !f.wide:
		m.past.SetSize(w, h)
	case mode == modeActivity && !f.wide, len(m.requests) == 0:
		m.idle.SetSize(w, h)
	case mode == modeInbox && f.inboxRows == 0:
		m.inbox.SetSize(w, h)
	case f.wide:
		rows := h
		if f.inboxRows > 0 {
			m.inbox.SetSize(f.sideW, f.inboxRows)
			rows -= f.inboxRows + 1
		}
		m.activity.SetSize(f.sideW, max(rows, 1))
		m.past.SetSize(f.panelW, f.panelH)
	default:
		if f.inboxRows > 0 {
			m.inbox.SetSize(w, f.inboxRows)
		}
		m.activity.SetSize(w, f.activityRows)
	}
}

// frameFor lays out the session's body in w×h. With nothing waiting, the
// activity takes the whole body. Narrow screens stack the inbox, the
// panel and the activity; the panel keeps its room first, the inbox and
// activity get what is left.
func (m *Model) frameFor(w, h int) frame {
	f := frame{panelW: w, panelH: h}
	waiting := len(m.requests)
	if waiting == 0 {
		return f
	}
	if m.width >= wideFrom {
		f.wide = true
		f.panelW = min(max(w*11/20, minPanelW), maxPanelW, w-3-minSideW)
		f.sideW = w - 3 - f.panelW // " │ "
		f.inboxRows = min(waiting+1, max(h/3, 3))
		if waiting+1 > f.inboxRows {
			f.inboxRows = max(f.inboxRows, 3) // title, a row, the "more" line
		}
		return f
	}
	used := 0
	if waiting > 1 && h >= 14 {
		f.inboxRows = min(waiting+1, 4)
		if waiting+1 > f.inboxRows {
			f.inboxRows++ // the "more" line
		}
		// The call the panel asks about comes first: the list shrinks
		// to its title, the row shown and the count of the rest, then
		// goes (the title bar still counts what waits).
		for f.inboxRows > 0 && !m.qpane.RoomFor(w, h-f.inboxRows-1) {
			if f.inboxRows > 3 {
				f.inboxRows = 3
			} else {
				f.inboxRows = 0
			}
		}
		if f.inboxRows > 0 {
			used += f.inboxRows + 1 // and a gap
		}
	}
	rest := h - used
	f.panelH = max(rest, 1)
	if rest >= 20 {
		// The panel takes the rows it needs (at least half), the
		// activity the rest.
		need := max(m.qpane.Need(w, rest), rest/2)
		if spare := rest - need - 1; spare >= 5 {
			f.activityRows = spare
			f.panelH = need
		}
	}
	return f
}

// layoutRun lays out the conversation view: the agents' row (when
// several), the transcript, and below it the question panel (and the
// inbox above it) while a question has the keys, else the prompt editor.
func (m *Model) layoutRun(w, h int) {
	var r runFrame
	r.inboxRows, r.panelH = m.runPanelRows(w, h)
	m.qpane.SetSize(w, r.panelH)
	m.picker.SetSize(w, h)
	m.past.SetSize(w, h)
	m.rulebook.SetSize(w, h)
	r.tabs = len(m.convs) > 1
	switch m.mode() {
	case modeQuestion, modeReview, modeConfirm, modeNote, modeRemember, modeInbox:
		r.questions = true
	default:
	}
	bottom := 1 // "no agent is running"
	c := m.conv()
	switch {
	case r.questions:
		if r.inboxRows > 0 {
			m.inbox.SetSize(w, r.inboxRows)
		}
		bottom = r.inboxRows + r.panelH
	case c != nil:
		c.Prompt().SetSize(w, 0)
		bottom = c.Prompt().Rows()
		c.Prompt().SetSize(w, bottom)
	}
	top := 0
	if r.tabs {
		top = 1
	}
	r.midRows = max(h-top-bottom-1, 1)
	if c != nil {
		c.Transcript().SetSize(w, r.midRows)
	}
	m.lay.run = r
}

// runPanelRows lays out the bottom of the conversation view in a body of
// w×h while a question has the keys: the inbox's rows above the panel
// (when several wait), and the panel's, as many as the question needs
// within three fifths of the body (the remember dialog, all but two
// rows).
func (m *Model) runPanelRows(w, h int) (inboxRows, panelH int) {
	if len(m.requests) > 1 {
		inboxRows = min(len(m.requests)+1, 4)
	}
	// The most the bottom takes: the transcript keeps a row and the gap
	// under it, and the agents' row stays.
	most := h - 2
	if len(m.convs) > 1 {
		most--
	}
	room := max(h*3/5-inboxRows, min(most-inboxRows, 8))
	if m.mode() == modeRemember {
		room = max(most-inboxRows, 1) // the dialog is about the question only: the transcript can wait
	}
	// The call the panel asks about comes first: the transcript gives
	// way, then the inbox list.
	if !m.qpane.RoomFor(w, room) {
		room = max(room, most-inboxRows, 1)
		if inboxRows > 0 && !m.qpane.RoomFor(w, room) {
			inboxRows, room = 0, max(most, 1)
		}
	}
	panelH = room
	if m.activeRequest() != nil {
		panelH = min(room, max(m.qpane.Need(w, room), 4))
	}
	return inboxRows, panelH
}

// contentWidth is the screen's width inside its one-column margins.
func (m *Model) contentWidth() int {
	if m.embedded {
		return max(m.width, 1)
	}
	return max(m.width-2, 1)
}

package app

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/request"
)

// titleBar shows the app, the asking agent or the agents connected, the
// countdown and how many questions wait.
func (m *Model) titleBar() string {
	st := m.Styles
	w := m.lay.width
	left := st.App.Name.Render("asktui")
	r := m.activeRequest()
	var runRight string
	switch {
	case m.kind == kindRun:
		left, runRight = m.runTitle()
	case m.kind == kindSession:
		left += st.App.Bar.Render(" " + cell.Plural(m.log.Connected(), "agent connected", "agents connected"))
	case r != nil:
		left += " " + st.App.Agent.Render(r.Agent) + st.App.Bar.Render(" asks")
	}
	var right []string
	if runRight != "" {
		right = append(right, runRight)
	}
	if r != nil && !r.Deadline.IsZero() {
		left := r.Deadline.Sub(m.Now())
		s := st.App.Countdown
		if left < 10*time.Second {
			s = st.App.CountdownUrgent
		}
		right = append(right, s.Render("⏱ "+cell.Duration(left)+" left"))
	}
	switch n := len(m.requests); {
	case m.kind.many() && n > 0:
		right = append(right, st.App.Queue.Render(cell.Plural(request.QuestionCount(m.requests), "question waiting", "questions waiting")))
	case m.kind == kindOneShot && n > 1:
		right = append(right, st.App.Queue.Render(fmt.Sprintf("+%d waiting", n-1))+st.App.Bar.Render(" ("+m.waitingAgents(r)+")"))
	}
	rs := strings.Join(right, st.App.Bar.Render(" · "))
	if rs == "" {
		return ansi.Truncate(left, w, "…")
	}
	if m.kind == kindSession && cell.Width(left)+1+cell.Width(rs) > w {
		left = st.App.Name.Render("asktui") // what waits matters more than who is connected
	}
	space := w - cell.Width(left) - cell.Width(rs)
	if space < 1 {
		rs = ansi.Truncate(rs, max(w-cell.Width(left)-1, 0), "…")
		space = max(w-cell.Width(left)-cell.Width(rs), 1)
	}
	return ansi.Truncate(left+strings.Repeat(" ", space)+rs, w, "…")
}

// waitingAgents lists the agents of the waiting requests other than the
// shown one, each once, in arrival order.
func (m *Model) waitingAgents(shown *request.Request) string {
	seen := map[string]bool{}
	var names []string
	for _, r := range m.requests {
		if r == shown || seen[r.Agent] {
			continue
		}
		seen[r.Agent] = true
		names = append(names, r.Agent)
	}
	return strings.Join(names, ", ")
}

package app

import (
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/request"
)

// alertEvery is the least time between two alerts: a burst of arrivals
// (twenty thousand in two seconds, from a runaway agent) rings and
// notifies about once a second, the notification counting what arrived.
const alertEvery = time.Second

// alertPacing holds back the alerts of a burst: when the last went out,
// how many arrivals wait for the next, and whether a timer is set.
type alertPacing struct {
	last      time.Time
	held      int
	heldFrom  []string // agents of the held arrivals, each once
	scheduled bool
}

// alert tells the human a request arrived, in the ways switched on, at
// most once per alertEvery; arrivals in between are counted into the
// next alert.
func (m *Model) alert(r *request.Request) tea.Cmd {
	if !m.kind.many() || (!m.alerts.Bell && !m.alerts.Notify) {
		return nil
	}
	p := &m.pacing
	now := m.clock()
	if !p.last.IsZero() && now.Sub(p.last) < alertEvery {
		p.held++
		if len(p.heldFrom) < 4 && !slices.Contains(p.heldFrom, r.Agent) {
			p.heldFrom = append(p.heldFrom, r.Agent)
		}
		if p.scheduled {
			return nil
		}
		p.scheduled = true
		return tea.Tick(alertEvery-now.Sub(p.last), func(time.Time) tea.Msg { return alertMsg{} })
	}
	p.last = now
	return m.alertSeq("asktui: "+r.Agent+" asks", r.Summary())
}

// flushAlerts sends one alert for the arrivals held back.
func (m *Model) flushAlerts() tea.Cmd {
	p := &m.pacing
	p.scheduled = false
	if p.held == 0 {
		return nil
	}
	n, from := p.held, p.heldFrom
	p.held, p.heldFrom, p.last = 0, nil, m.clock()
	return m.alertSeq("asktui: "+cell.Plural(n, "new request", "new requests"), "from "+strings.Join(from, ", "))
}

// alertSeq is the bell and the desktop notification (OSC 9 and OSC 777).
func (m *Model) alertSeq(title, body string) tea.Cmd {
	var seq strings.Builder
	if m.alerts.Bell {
		seq.WriteByte(ansi.BEL)
	}
	if m.alerts.Notify {
		body = ansi.Truncate(body, 120, "…")
		seq.WriteString(ansi.Notify(title + ": " + body))                                         // OSC 9
		seq.WriteString("\x1b]777;notify;" + notifyText(title) + ";" + notifyText(body) + "\x07") // OSC 777
	}
	if seq.Len() == 0 {
		return nil
	}
	return tea.Raw(seq.String())
}

// notifyText keeps an OSC 777 field from ending early: no ';', and the
// text is already sanitized.
func notifyText(s string) string { return strings.ReplaceAll(cell.SanitizeLine(s), ";", ",") }

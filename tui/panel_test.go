package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
)

// drive hands msg to p and runs what it returns at once, as the host's
// event loop would, collecting the PanelDoneMsgs; commands still waiting
// (timers) are left.
func drive(t *testing.T, p *Panel, msg tea.Msg) []PanelDoneMsg {
	t.Helper()
	var done []PanelDoneMsg
	queue := []tea.Cmd{p.Update(msg)}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg, _ := runCmd(c)
		switch msg := msg.(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case PanelDoneMsg:
			done = append(done, msg)
		default:
			queue = append(queue, p.Update(msg))
		}
	}
	return done
}

// giveKeys gives p the keys, running what that starts.
func giveKeys(t *testing.T, p *Panel) {
	t.Helper()
	for _, msg := range flatten(p.Focus()) {
		drive(t, p, msg)
	}
}

func panelKeys(t *testing.T, p *Panel, keys ...string) []PanelDoneMsg {
	t.Helper()
	var done []PanelDoneMsg
	for _, k := range keys {
		for _, msg := range keyMsgs(k) {
			done = append(done, drive(t, p, msg)...)
		}
	}
	return done
}

// The panel a host program embeds is asktui's question UI: a batch with
// tabs, the review step and the answer in one PanelDoneMsg.
func TestPanelAnswers(t *testing.T) {
	run(t, func(t *testing.T) {
		p, err := NewPanel(setupRequest(), PanelOptions{Chosen: true, Width: 70, Height: 20})
		if err != nil {
			t.Fatal(err)
		}
		if done := panelKeys(t, p, "2"); len(done) != 0 || len(p.ShortHelp()) != 0 {
			t.Fatal("a new panel took a key, or offered one, before Focus")
		}
		giveKeys(t, p)
		runCmd(p.Init())
		v := ansi.Strip(p.View())
		mustContain(t, v, "Review", "Where should")
		mustFit(t, v, 70, 20)
		if h := p.ShortHelp(); len(h) == 0 || h[0].Help().Desc != "next" {
			t.Fatalf("help %v", h)
		}
		for _, g := range p.FullHelp() {
			for _, b := range g {
				if strings.Contains(b.Help().Key, "ctrl+c") || b.Help().Key == "?" {
					t.Fatalf("the host's keys in the panel's help: %v", b.Help())
				}
			}
		}
		done := panelKeys(t, p, "ctrl+c", "enter", "enter", "space", "enter", "ship it", "enter")
		if len(done) != 0 || p.Done() {
			t.Fatal("done before the review's submit")
		}
		done = panelKeys(t, p, "enter")
		if len(done) != 1 || done[0].Err != nil || done[0].Panel != p {
			t.Fatalf("done %+v", done)
		}
		a := done[0].Answer
		if err := a.Check(setupRequest()); err != nil || len(a.Answers) != 4 || a.Answers[3].Custom != "ship it" {
			t.Fatalf("answer %+v, %v", a, err)
		}
		if more := panelKeys(t, p, "enter", "1"); len(more) != 0 {
			t.Fatal("a second PanelDoneMsg")
		}
	})
}

// Declining is ASK_DECLINED; a bad request is refused with its code.
func TestPanelDeclinesAndRefuses(t *testing.T) {
	run(t, func(t *testing.T) {
		if _, err := NewPanel(interaction.Request{}, PanelOptions{}); interaction.CodeOf(err) != interaction.CodeEmptyQuestions {
			t.Fatalf("empty request: %v", err)
		}
		p, err := NewPanel(single(deployQuestion()), PanelOptions{Chosen: true})
		if err != nil {
			t.Fatal(err)
		}
		giveKeys(t, p)
		done := panelKeys(t, p, "esc", "y")
		if len(done) != 1 || interaction.CodeOf(done[0].Err) != interaction.CodeDeclined {
			t.Fatalf("done %+v", done)
		}
	})
}

// A panel that appeared by itself holds the keys that answer, as asktui
// does; one the human opened takes them at once. Two panels never take
// each other's messages.
func TestPanelHoldAndTwoPanels(t *testing.T) {
	run(t, func(t *testing.T) {
		base := time.Now() // the bubble's clock stands still
		shown, err := NewPanel(single(deployQuestion()), PanelOptions{})
		if err != nil {
			t.Fatal(err)
		}
		giveKeys(t, shown)
		if done := panelKeys(t, shown, "1"); len(done) != 0 {
			t.Fatal("a key answered a panel that had just appeared")
		}
		mustContain(t, ansi.Strip(shown.View()), "keys held a moment")
		other, err := NewPanel(single(deployQuestion()), PanelOptions{Chosen: true})
		if err != nil {
			t.Fatal(err)
		}
		giveKeys(t, other)
		// The first panel's hold timer, handed to the other, is ignored.
		if cmd := other.Update(panelMsg{p: shown, msg: shown.m.HoldTimer()}); cmd != nil {
			t.Fatal("a panel took another's message")
		}
		done := panelKeys(t, other, "2")
		if len(done) != 1 || done[0].Answer.Answers[0].Selected[0] != "No" {
			t.Fatalf("done %+v", done)
		}
		shown.m.SetClock(func() time.Time { return base.Add(time.Minute) })
		drive(t, shown, panelMsg{p: shown, msg: shown.m.HoldTimer()})
		if done := panelKeys(t, shown, "3"); len(done) != 1 {
			t.Fatal("the hold did not end")
		}
	})
}

// Two panels in one program, both fed every message as a host does: a
// key answers the focused one only, and moving the focus moves the keys.
func TestTwoPanelsOneKey(t *testing.T) {
	run(t, func(t *testing.T) {
		deploy, err := NewPanel(single(deployQuestion()), PanelOptions{Chosen: true, Width: 60, Height: 10})
		if err != nil {
			t.Fatal(err)
		}
		migrate, err := NewPanel(single(interaction.Question{ID: "when", Question: "Run the migration?", Options: opts("Now", "Tonight")}), PanelOptions{Chosen: true, Width: 60, Height: 10})
		if err != nil {
			t.Fatal(err)
		}
		both := func(keys ...string) (done []PanelDoneMsg) {
			for _, k := range keys {
				for _, msg := range keyMsgs(k) {
					done = append(done, drive(t, deploy, msg)...)
					done = append(done, drive(t, migrate, msg)...)
				}
			}
			return done
		}
		giveKeys(t, deploy)
		if !deploy.Focused() || migrate.Focused() || len(migrate.ShortHelp()) != 0 {
			t.Fatal("the focus is not on the first panel alone")
		}
		mustContain(t, ansi.Strip(deploy.View()), "❯")
		mustNotContain(t, ansi.Strip(migrate.View()), "❯")
		deploy.Blur()
		giveKeys(t, migrate)
		done := both("2")
		if len(done) != 1 || done[0].Panel != migrate || done[0].Answer.Answers[0].Selected[0] != "Tonight" {
			t.Fatalf("one key answered %d panels: %+v", len(done), done)
		}
		if deploy.Done() {
			t.Fatal("the blurred panel took the key")
		}
		giveKeys(t, deploy)
		done = both("1")
		if len(done) != 1 || done[0].Panel != deploy || done[0].Answer.Answers[0].Selected[0] != "Yes (Recommended)" {
			t.Fatalf("done %+v", done)
		}
	})
}

package app

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/styles"
)

// TestGolden pins whole screens, without styling, at the sizes asktui
// promises to handle. Refresh with `go test ./tui -run TestGolden -update`.
func TestGolden(t *testing.T) {
	many := make([]interaction.Option, 300)
	for i := range many {
		many[i] = interaction.Option{Label: fmt.Sprintf("service-%03d", i+1)}
	}
	cases := []struct {
		name  string
		req   interaction.Request
		keys  []string
		extra func(*Model)
	}{
		{name: "single", req: single(deployQuestion())},
		{name: "multi", req: single(interaction.Question{
			ID: "extras", Header: "Extras", Question: "Which extras should the new service ship with?", MultiSelect: true,
			Options: []interaction.Option{
				{Label: "Metrics (Recommended)", Description: "Prometheus endpoint on :9090."},
				{Label: "Tracing", Description: "OpenTelemetry spans to the collector."},
				{Label: "Structured logs"},
			},
		}), keys: []string{"space", "down", "down"}},
		{name: "several", req: setupRequest(), keys: []string{"down", "enter"}},
		{name: "review", req: setupRequest(), keys: []string{"enter", "tab", "space", "enter", "tab"}},
		{name: "decline", req: setupRequest(), keys: []string{"esc"}},
		{name: "freetext", req: single(interaction.Question{ID: "n", Header: "Name", Question: "What should the service be called?"}), keys: []string{"billing-api"}},
		{name: "other", req: single(deployQuestion()), keys: []string{"end", "down", "after the demo"}},
		{name: "long", req: single(interaction.Question{
			ID: "long", Question: strings.Repeat("The migration rewrites every row of the events table and takes the database offline while it runs. ", 12),
			Options: many,
		}), keys: []string{"down", "down"}},
		{name: "filter", req: single(interaction.Question{ID: "svc", Question: "Which service?", Options: many}), keys: []string{"/", "04"}},
		{name: "queue", req: single(deployQuestion()), extra: func(m *Model) {
			ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: "gemini"}, Questions: []interaction.Question{{ID: "q", Question: "Later?"}}})
			ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: "codex"}, Questions: []interaction.Question{{ID: "q", Question: "Later?"}}})
		}},
		{name: "empty"},
		// A command wraps only at its spaces; a word wider than the
		// line is cut with the mark (↩).
		{name: "wrap", req: bashPermission("./bin/server --config config/production.yaml --listen-address 0.0.0.0:8080 --tls-cert=/etc/ssl/private/production-cluster-certificate-bundle.pem")},
	}
	for _, c := range cases {
		for _, size := range [][2]int{{100, 30}, {60, 20}, {40, 12}} {
			t.Run(fmt.Sprintf("%s/%dx%d", c.name, size[0], size[1]), func(t *testing.T) {
				run(t, func(t *testing.T) {
					m := testModel(t, size[0], size[1])
					if c.req.Questions != nil {
						ask(t, m, c.req)
					}
					if c.extra != nil {
						c.extra(m)
					}
					glance(m)
					press(m, c.keys...)
					s := screen(m)
					mustFit(t, s, size[0], size[1])
					golden.RequireEqual(t, s)
				})
			})
		}
	}
}

// TestMonochromeShowsCursorAndSelection checks that without colour the
// focus and the choices are still visible, by glyph alone. ThemeMono is
// what NO_COLOR selects; the command line resolves that (styles reads no
// environment).
func TestMonochromeShowsCursorAndSelection(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		m.theme = styles.ThemeMono
		m.setStyles(styles.For(styles.ThemeMono, true))
		ask(t, m, single(interaction.Question{ID: "x", Question: "Pick?", MultiSelect: true, Options: opts("Alpha", "Beta")}))
		press(m, "space", "down")
		raw := m.render()
		if strings.Contains(raw, "\x1b[38") || strings.Contains(raw, "\x1b[48") {
			t.Fatalf("mono screen still has colour sequences")
		}
		s := screen(m)
		mustContain(t, s, "❯", "[✓]", "[ ]")
	})
}

// TestGoldenTabRowColours pins the tab row with its styling, in every
// theme: the active tab is one pill from edge to edge, its mark included.
func TestGoldenTabRowColours(t *testing.T) {
	for _, theme := range []styles.Theme{styles.ThemeDark, styles.ThemeLight, styles.ThemeANSI, styles.ThemeMono} {
		t.Run(string(theme), func(t *testing.T) {
			run(t, func(t *testing.T) {
				m := testModel(t, 100, 30)
				m.setStyles(styles.For(theme, true))
				ask(t, m, setupRequest())
				press(m, "enter") // env answered, Database active
				row := m.qpane.TabsView(m.activeRequest(), 96)
				golden.RequireEqual(t, strings.ReplaceAll(row, "\x1b", "\\e")+"\n")
				// The active pill: its background is on from its first
				// cell to its last, with no reset inside.
				active := m.Styles.Tabs.Active.Render("○ Database")
				if !strings.Contains(row, active) {
					t.Fatalf("the active tab is not one pill:\n%q\nwant it to contain\n%q", row, active)
				}
			})
		})
	}
}

// TestHelpGolden pins the ? overlay of each kind of view at the sizes
// asktui promises: one column, every description whole, scrolling when
// the keys do not fit (the second screen of each is one page down).
func TestHelpGolden(t *testing.T) {
	views := []struct {
		name  string
		setup func(t *testing.T, w, h int) *Model
	}{
		{"one-shot", func(t *testing.T, w, h int) *Model {
			m := testModel(t, w, h)
			ask(t, m, setupRequest())
			return m
		}},
		{"session", func(t *testing.T, w, h int) *Model {
			m, _, _ := busySession(t, w, h)
			return m
		}},
		{"run", func(t *testing.T, w, h int) *Model {
			m, f := testRun(t, w, h)
			busyConversation(m, f)
			m.conv().BeginTurn(time.Time{}) // esc cancels the turn
			return m
		}},
	}
	for _, v := range views {
		for _, size := range [][2]int{{100, 30}, {60, 20}, {40, 12}} {
			t.Run(fmt.Sprintf("%s/%dx%d", v.name, size[0], size[1]), func(t *testing.T) {
				run(t, func(t *testing.T) {
					m := v.setup(t, size[0], size[1])
					glance(m)
					press(m, "f1")
					if m.mode() != modeHelp {
						t.Fatalf("f1 left mode %v", m.mode())
					}
					s := screen(m)
					mustFit(t, s, size[0], size[1])
					body := s[strings.IndexByte(s, '\n'):] // the title bar may be cut
					mustNotContain(t, body, "…")
					press(m, "pgdown")
					s2 := screen(m)
					mustFit(t, s2, size[0], size[1])
					golden.RequireEqual(t, s+"\n---\n"+s2)
				})
			})
		}
	}
}

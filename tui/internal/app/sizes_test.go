package app

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/tui/internal/cell"
)

// exampleRequests reads the requests shipped in examples/.
func exampleRequests(t *testing.T) map[string]interaction.Request {
	t.Helper()
	files, err := filepath.Glob("../../../examples/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	out := map[string]interaction.Request{}
	for _, f := range files {
		b, err := os.ReadFile(f) //nolint:gosec // a path the test made, or its testdata
		if err != nil {
			t.Fatal(err)
		}
		req, err := interaction.DecodeRequest(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[filepath.Base(f)] = req
	}
	return out
}

// TestEverySizeShowsAnOptionAndTheHelp: at every size from 40x12 up, in
// the one-shot and the session view, every question of every example
// shows at least one option row (or its text box) and the help line, the
// screen fits, and every option can be reached by keyboard.
func TestEverySizeShowsAnOptionAndTheHelp(t *testing.T) {
	reqs := exampleRequests(t)
	sizes := [][2]int{{40, 12}, {45, 14}, {50, 16}, {60, 20}, {80, 24}, {100, 30}, {140, 40}, {200, 60}}
	for name, req := range reqs {
		for _, session := range []bool{false, true} {
			for _, size := range sizes {
				t.Run(fmt.Sprintf("%s/session=%v/%dx%d", name, session, size[0], size[1]), func(t *testing.T) {
					run(t, func(t *testing.T) {
						m := testModel(t, size[0], size[1])
						if session {
							m.kind = kindSession
							send(m, teaSize(size[0], size[1]))
							// Another request waiting: the inbox competes for rows.
							askFrom(t, m, "other", interaction.Question{ID: "o", Question: "Other?", Options: opts("A", "B")})
							ask(t, m, req)
							press(m, "ctrl+n")
						} else {
							ask(t, m, req)
						}
						for i, q := range req.Questions {
							s := screen(m)
							mustFit(t, s, size[0], size[1])
							lines := strings.Split(s, "\n")
							if help := lines[len(lines)-1]; !strings.Contains(help, "•") && !strings.Contains(help, "help") {
								t.Fatalf("question %d: no help line:\n%s", i+1, s)
							}
							if len(q.Options) > 0 {
								if !strings.Contains(s, "❯ 1. ") {
									t.Fatalf("question %d: no option row:\n%s", i+1, s)
								}
								// Every option is reachable: the last one shows
								// after End, and Other after one more Down.
								press(m, "end")
								last := ansi.Truncate(cell.SanitizeLine(q.Options[len(q.Options)-1].Label), 10, "")
								mustContain(t, screen(m), last)
								press(m, "down")
								mustContain(t, screen(m), "Other")
								press(m, "home")
							} else if !strings.Contains(s, "┃") {
								t.Fatalf("question %d: no text box:\n%s", i+1, s)
							}
							press(m, "tab")
						}
					})
				})
			}
		}
	}
}

// The row under the cursor is always on screen, at every size and in
// every kind of view: the panel is drawn in the rows its form was sized
// for (in the conversation view, a question with a long detail once had
// its Other row drawn below the panel, with no mark that it was there).
func TestCursorRowAlwaysShown(t *testing.T) {
	q := interaction.Question{
		ID: "permission", Header: "Permission", Question: "Allow Run rm -rf build?",
		Detail:  "```sh\nrm -rf build\n```\n\nThis removes the build directory and everything in it, including caches.",
		Options: []interaction.Option{{Label: "Allow once"}, {Label: "Allow always", Description: "for this session"}, {Label: "Reject"}},
	}
	kinds := map[string]func(t *testing.T, w, h int) (*Model, string){
		"one-shot": func(t *testing.T, w, h int) (*Model, string) { return testModel(t, w, h), "claude" },
		"session":  func(t *testing.T, w, h int) (*Model, string) { return testSession(t, w, h), "claude" },
		"run": func(t *testing.T, w, h int) (*Model, string) {
			m, f := testRun(t, w, h)
			busyConversation(m, f)
			return m, f.info.ID
		},
	}
	for name, start := range kinds {
		for _, w := range []int{40, 47, 60, 61, 80, 100, 120} {
			for h := 10; h <= 32; h += 2 {
				t.Run(fmt.Sprintf("%s/%dx%d", name, w, h), func(t *testing.T) {
					run(t, func(t *testing.T) {
						m, agent := start(t, w, h)
						ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: agent}, Questions: []interaction.Question{q}})
						glance(m)
						press(m, "end", "down")
						if s := screen(m); !strings.Contains(s, "Other") {
							t.Fatalf("the cursor is on the Other row, which is not shown:\n%s", s)
						}
					})
				})
			}
		}
	}
}

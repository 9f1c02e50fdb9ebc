package app

import (
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
)

// TestSmallScreenUsesEveryRow: on a short terminal, while the question's
// text is cut (it says "↕ lines"), no row between the title bar and the
// help bar is left blank: neither the notice line with no notice on it
// nor the rows an option list leaves when its next option does not fit.
func TestSmallScreenUsesEveryRow(t *testing.T) {
	long := strings.Repeat("The migration rewrites every row of the events table. ", 12)
	desc := "Roll out to all regions now; the rollout takes about ten minutes and pages on-call."
	for _, size := range [][2]int{{40, 12}, {50, 10}, {60, 14}} {
		for _, q := range []interaction.Question{
			{ID: "a", Header: "Deploy", Question: long, Options: []interaction.Option{{Label: "Yes", Description: desc}, {Label: "No", Description: desc}, {Label: "Later", Description: desc}}},
			{ID: "b", Question: long, Options: opts("one", "two", "three", "four", "five", "six", "seven", "eight")},
		} {
			run(t, func(t *testing.T) {
				m := testModel(t, size[0], size[1])
				ask(t, m, single(q))
				glance(m)
				s := screen(m)
				lines := strings.Split(s, "\n")
				if len(lines) != size[1] {
					t.Fatalf("%dx%d: %d lines", size[0], size[1], len(lines))
				}
				if !strings.Contains(s, "↕ lines") {
					t.Fatalf("%dx%d: the text is not cut, so the test tests nothing:\n%s", size[0], size[1], s)
				}
				for i, l := range lines[1 : len(lines)-1] {
					if strings.TrimSpace(l) == "" {
						t.Errorf("%dx%d, question %s: row %d is blank while the text is cut:\n%s", size[0], size[1], q.ID, i+2, s)
						break
					}
				}
			})
		}
	}
}

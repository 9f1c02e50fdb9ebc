package app

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/styles"
)

// BenchmarkFirstScreen is the one-shot view's work from a request to its
// first screen at 120x40, as `asktui ask` does it before bubbletea draws:
// the model, the request's arrival (its question and option list built),
// the size, and the first View. One op is a new model; the request is
// decoded already.
func BenchmarkFirstScreen(b *testing.B) {
	for _, n := range []int{10, 1000, 10_000, 100_000} {
		opts := make([]interaction.Option, n)
		for i := range opts {
			opts[i] = interaction.Option{Label: fmt.Sprintf("Option %d", i+1)}
		}
		req := interaction.Request{Questions: []interaction.Question{{ID: "pick", Question: "Pick one", Options: opts}}}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for i := range b.N {
				m := newModel(styles.ThemeDark, true, time.Now)
				m.answers = newFakeInbox()
				m.Update(askMsg{req: askReq(uint64(i+1), req)})
				m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
				if v := m.View(); v.Content == "" {
					b.Fatal("nothing drawn")
				}
			}
		})
	}
}

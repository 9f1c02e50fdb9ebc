//go:build !windows

package cast

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/asktui/asktui/internal/ptytest"
)

// sizeModel shows the window size bubbletea reported, in colour, and
// quits after a few frames.
type sizeModel struct {
	width, height int
	frame         int
}

func (m sizeModel) Init() tea.Cmd { return nextFrame() }

func (m sizeModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case nextFrameMsg:
		m.frame++
		if m.frame >= 3 {
			return m, tea.Quit
		}
		return m, nextFrame()
	}
	return m, nil
}

func (m sizeModel) content() string {
	accent := lipgloss.NewStyle().Foreground(lipgloss.Color("#FF5F87")).Bold(true)
	return accent.Render(fmt.Sprintf("size %dx%d", m.width, m.height)) + fmt.Sprintf("\nframe %d", m.frame)
}

func (m sizeModel) View() tea.View {
	v := tea.NewView(m.content())
	v.AltScreen = true
	return v
}

// TestTerminalRecordsWhatTheTerminalGets runs a program on a real
// pseudo-terminal through a Terminal: bubbletea must see a terminal (its
// size and colours), and the recording must hold exactly the bytes the
// terminal received.
func TestTerminalRecordsWhatTheTerminalGets(t *testing.T) {
	term := ptytest.New(t, ptytest.Options{Cols: 40, Rows: 10})
	slave := term.Slave

	var rec bytes.Buffer
	cw, err := NewWriter(&rec, Header{Width: 40, Height: 10})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p := tea.NewProgram(sizeModel{},
		tea.WithContext(ctx),
		tea.WithInput(slave),
		tea.WithOutput(NewTerminal(slave, cw)),
		tea.WithoutSignals(),
		tea.WithEnvironment([]string{"TERM=xterm-256color"}),
	)
	final, err := p.Run()
	if err != nil {
		t.Fatal(err)
	}
	if err := cw.Close(); err != nil {
		t.Fatal(err)
	}
	h, events, err := Read(&rec)
	if err != nil {
		t.Fatal(err)
	}

	var recorded strings.Builder
	for _, ev := range events {
		recorded.WriteString(ev.Data)
	}
	if !strings.Contains(recorded.String(), "size 40x10") {
		t.Errorf("bubbletea did not see the terminal's size through the Terminal:\n%q", recorded.String())
	}
	if !strings.Contains(recorded.String(), "38;5;") && !strings.Contains(recorded.String(), "38;2;") {
		t.Errorf("bubbletea did not detect a colour terminal through the Terminal:\n%q", recorded.String())
	}

	// The terminal is raw while the program runs (no newline mapping), so
	// it gets exactly the recorded bytes.
	term.WaitUntil(0, fmt.Sprintf("the %d recorded bytes", recorded.Len()), func() bool {
		return len(term.Output()) >= recorded.Len()
	})
	if got := string(term.Output()); got != recorded.String() {
		t.Errorf("the terminal got\n%q\nthe recording holds\n%q", got, recorded.String())
	}

	alt, err := ReplayAltScreen(h, events)
	if err != nil {
		t.Fatal(err)
	}
	if want := PlainText(final.(sizeModel).content()); alt != want {
		t.Errorf("replayed last frame\n%s\nwant\n%s", alt, want)
	}
}

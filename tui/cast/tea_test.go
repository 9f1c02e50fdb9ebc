package cast

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// frameModel is a tiny program that draws a few frames and quits.
type frameModel struct {
	alt    bool
	frame  int
	frames int
}

// nextFrameMsg asks for the next frame.
type nextFrameMsg struct{}

// nextFrame paces the frames well apart from bubbletea's 60 fps renderer,
// so that each is drawn rather than merged with the next: the replay then
// has to follow the renderer's incremental updates.
func nextFrame() tea.Cmd {
	return tea.Tick(40*time.Millisecond, func(time.Time) tea.Msg { return nextFrameMsg{} })
}

func (m frameModel) Init() tea.Cmd { return nextFrame() }

func (m frameModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(nextFrameMsg); ok {
		m.frame++
		if m.frame >= m.frames {
			return m, tea.Quit
		}
		return m, nextFrame()
	}
	return m, nil
}

func (m frameModel) content() string {
	box := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1).Bold(true)
	return strings.Join([]string{
		box.Render(fmt.Sprintf("frame %d of %d", m.frame, m.frames)),
		"",
		"  " + strings.Repeat("█", m.frame) + " ✓ café",
	}, "\n")
}

func (m frameModel) View() tea.View {
	v := tea.NewView(m.content())
	v.AltScreen = m.alt
	return v
}

// record runs m as a real bubbletea program whose output goes to a
// recording, and returns the parsed recording and the model it ended with.
func record(t *testing.T, m frameModel) (Header, []Event, frameModel) {
	t.Helper()
	var tty, rec bytes.Buffer
	// Without tty input bubbletea leaves the terminal cooked and relies on
	// it turning "\n" into "\r\n"; record what such a terminal shows.
	cw, err := NewWriter(&rec, Header{Width: 40, Height: 10, Env: map[string]string{"TERM": "xterm-256color"}}, WithMapNewline())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p := tea.NewProgram(m,
		tea.WithContext(ctx),
		tea.WithOutput(io.MultiWriter(&tty, cw)),
		tea.WithInput(nil),
		tea.WithWindowSize(40, 10),
		tea.WithoutSignals(),
		tea.WithEnvironment([]string{"TERM=xterm-256color"}),
	)
	final, err := p.Run()
	if err != nil {
		t.Fatalf("program: %v", err)
	}
	if err := cw.Close(); err != nil {
		t.Fatal(err)
	}
	h, events, err := Read(&rec)
	if err != nil {
		t.Fatalf("the recording does not parse: %v\n%s", err, rec.String())
	}
	if tty.Len() == 0 || len(events) == 0 {
		t.Fatalf("nothing recorded (terminal got %d bytes, %d events)", tty.Len(), len(events))
	}
	return h, events, final.(frameModel)
}

// TestRecordBubbleteaAltScreen records a full-screen program, as asktui is,
// and checks that the recording parses and replays to the program's last
// frame. Quitting leaves the alternate screen, so the final screen is the
// normal one; the last frame is what ReplayAltScreen returns. (An inline
// program is no simpler: bubbletea 2.1 erases the line the cursor is on
// when it exits, so its final screen lacks the view's last line.)
func TestRecordBubbleteaAltScreen(t *testing.T) {
	h, events, final := record(t, frameModel{alt: true, frames: 5})
	want := PlainText(final.content())
	if !strings.Contains(want, "frame 5 of 5") {
		t.Fatalf("the model ended on\n%s", want)
	}
	frames := 0
	for _, ev := range events {
		if strings.Contains(ev.Data, "█") {
			frames++
		}
	}
	if frames < 2 {
		t.Errorf("%d frames recorded after the first, want several: the replay should follow incremental updates", frames)
	}
	got, err := ReplayAltScreen(h, events)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("last alt screen of the replay\n%s\nwant the last view\n%s", got, want)
	}
	normal, err := Replay(h, events)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(normal, "frame") {
		t.Errorf("after quitting, the normal screen still shows the program:\n%s", normal)
	}
}

package cast

import (
	"strings"
	"testing"
)

func TestReplaySynthetic(t *testing.T) {
	h := Header{Version: 2, Width: 20, Height: 5}
	events := []Event{
		// Normal screen: text, a styled word, cursor moves and overwrites.
		{0.1, "o", "shell$ asktui\r\n\x1b[1;31mred\x1b[0m text"},
		{0.2, "o", "\x1b[1;15Hdone\x1b[2;1Hgrn"}, // CUP: row 1 col 15, then overwrite "red"
		// Enter the alt screen, draw, clear part of it, and answer-free
		// queries (cursor position, device attributes) the emulator must
		// not block on.
		{0.3, "o", "\x1b[?1049h\x1b[2J\x1b[Hframe 1\x1b[6n\x1b[c"},
		{0.4, "o", "\x1b[H\x1b[2Kframe 2\x1b[3;3H┌─┐\x1b[4;3H└─┘"},
		// Split a sequence across two events: the replay must still see it.
		{0.5, "o", "\x1b[5;1Hbye ✓\x1b[?10"},
		{0.6, "o", "49l"},
		{0.7, "o", "\x1b[3;1H\x1b[K$ "},
	}
	final, err := Replay(h, events)
	if err != nil {
		t.Fatal(err)
	}
	wantFinal := strings.Join([]string{
		"shell$ asktui done",
		"grn text",
		"$",
	}, "\n")
	if final != wantFinal {
		t.Errorf("final screen\n%s\nwant\n%s", final, wantFinal)
	}

	alt, err := ReplayAltScreen(h, events)
	if err != nil {
		t.Fatal(err)
	}
	wantAlt := strings.Join([]string{
		"frame 2",
		"",
		"  ┌─┐",
		"  └─┘",
		"bye ✓",
	}, "\n")
	if alt != wantAlt {
		t.Errorf("last alt screen\n%s\nwant\n%s", alt, wantAlt)
	}
}

func TestReplayStillInAltScreen(t *testing.T) {
	h := Header{Version: 2, Width: 10, Height: 3}
	events := []Event{{0, "o", "main"}, {1, "o", "\x1b[?1049h\x1b[Hin alt"}}
	alt, err := ReplayAltScreen(h, events)
	if err != nil || alt != "in alt" {
		t.Errorf("ReplayAltScreen = %q, %v; want \"in alt\"", alt, err)
	}
	final, err := Replay(h, events)
	if err != nil || final != "in alt" {
		t.Errorf("Replay = %q, %v; want \"in alt\"", final, err)
	}
	alt, err = ReplayAltScreen(h, events[:1])
	if err != nil || alt != "" {
		t.Errorf("ReplayAltScreen without the alt screen = %q, %v; want \"\"", alt, err)
	}
}

func TestReplayResize(t *testing.T) {
	h := Header{Version: 2, Width: 10, Height: 2}
	events := []Event{
		{0, "o", "0123456789abc"}, // wraps at 10 columns
		{1, "r", "20x3"},
		{2, "o", "\x1b[3;1H0123456789abcdef"}, // fits in 20 columns
	}
	got, err := Replay(h, events)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(got, "\n"); len(lines) != 3 || lines[2] != "0123456789abcdef" {
		t.Errorf("after resizing to 20x3 the screen is\n%s", got)
	}
	if _, err := Replay(h, []Event{{0, "r", "wide"}}); err == nil {
		t.Error("Replay accepted a broken resize event")
	}
	if _, err := Replay(Header{Version: 2}, nil); err == nil {
		t.Error("Replay accepted a 0x0 header")
	}
}

func TestPlainText(t *testing.T) {
	got := PlainText("\x1b[1mtitle\x1b[0m   \r\n  body  \n\n   \n")
	if want := "title\n  body"; got != want {
		t.Errorf("PlainText = %q, want %q", got, want)
	}
}

package termstate

import (
	"slices"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestLeftovers(t *testing.T) {
	enter := ansi.SetModeAltScreenSaveCursor + ansi.HideCursor + ansi.SetModeBracketedPaste +
		ansi.SetModeFocusEvent + "\x1b[?1002;1006h" + ansi.SetModifyOtherKeys2 +
		ansi.PushKittyKeyboard(1) + ansi.SetWindowTitle("(2) asktui") + "hello"
	leave := ansi.ResetModifyOtherKeys + ansi.PopKittyKeyboard(1) + ansi.ResetModeAltScreenSaveCursor +
		ansi.ShowCursor + ansi.ResetModeBracketedPaste + ansi.ResetModeFocusEvent +
		ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseExtSgr + ansi.SetWindowTitle("")

	tests := []struct {
		name   string
		output string
		want   []string
	}{
		{"nothing written", "", nil},
		{"everything turned back", enter + leave, nil},
		{"killed on the alternate screen", enter, []string{
			"mode ?25 (cursor visible) left reset",
			"mode ?1002 (mouse button-motion reporting) left set",
			"mode ?1004 (focus reporting) left set",
			"mode ?1006 (SGR mouse encoding) left set",
			"mode ?1049 (alternate screen) left set",
			"mode ?2004 (bracketed paste) left set",
			"1 Kitty keyboard entries pushed and not popped",
			"modifyOtherKeys left at 2",
			`window title left as "(2) asktui"`,
		}},
		{"a mode request changes nothing", "\x1b[?2026$p", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := NewTracker()
			// One byte at a time: sequences arrive split across reads.
			for i := range len(tt.output) {
				_, _ = tr.Write([]byte{tt.output[i]})
			}
			if got := tr.Leftovers(); !slices.Equal(got, tt.want) {
				t.Errorf("leftovers\n got %q\nwant %q", got, tt.want)
			}
		})
	}

	tr := NewTracker()
	_, _ = tr.Write([]byte(enter + leave))
	if !tr.Changed(1049) || !tr.Changed(25) || tr.Changed(7) || !tr.Pushed() {
		t.Errorf("Changed(1049) %v, Changed(25) %v, Changed(7) %v, Pushed %v; want true, true, false, true",
			tr.Changed(1049), tr.Changed(25), tr.Changed(7), tr.Pushed())
	}
	if tr.Text() != "hello" {
		t.Errorf("Text() = %q, want the printed text alone", tr.Text())
	}
}

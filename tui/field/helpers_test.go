package field

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/styles"
)

var (
	kUp    = tea.KeyPressMsg{Code: tea.KeyUp}
	kDown  = tea.KeyPressMsg{Code: tea.KeyDown}
	kPgDn  = tea.KeyPressMsg{Code: tea.KeyPgDown}
	kPgUp  = tea.KeyPressMsg{Code: tea.KeyPgUp}
	kHome  = tea.KeyPressMsg{Code: tea.KeyHome}
	kEnd   = tea.KeyPressMsg{Code: tea.KeyEnd}
	kEnter = tea.KeyPressMsg{Code: tea.KeyEnter}
	kEsc   = tea.KeyPressMsg{Code: tea.KeyEscape}
	kBksp  = tea.KeyPressMsg{Code: tea.KeyBackspace}
	kSpace = tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	kCtrlA = tea.KeyPressMsg{Code: 'a', Mod: tea.ModCtrl}
)

// ch is the key press that types r.
func ch(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }

// typed is the key presses that type s, spaces included.
func typed(s string) []tea.Msg {
	var msgs []tea.Msg
	for _, r := range s {
		if r == ' ' {
			msgs = append(msgs, kSpace)
			continue
		}
		msgs = append(msgs, ch(r))
	}
	return msgs
}

func numbered(n int) []string {
	labels := make([]string, n)
	for i := range labels {
		labels[i] = fmt.Sprintf("Option %d", i)
	}
	return labels
}

var testStyles = styles.New(styles.DarkPalette())

// newChoice builds a focused Choice of the given size.
func newChoice(t testing.TB, cfg ChoiceConfig, w, h int) *Choice {
	t.Helper()
	if cfg.Styles == nil {
		cfg.Styles = testStyles
	}
	c := NewChoice(cfg)
	c.WithWidth(w)
	c.WithHeight(h)
	c.Focus()
	return c
}

// press sends messages to the field and returns the last command.
func press(c *Choice, msgs ...tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	for _, m := range msgs {
		cmd, lastDone[c] = c.Handle(m)
	}
	return cmd
}

// lastDone is whether the last key press handed each Choice confirmed
// its question.
var lastDone = map[*Choice]bool{}

// confirmed reports whether the last key press confirmed c's question.
func confirmed(c *Choice) bool { return lastDone[c] }

// screen is the field's view without escape sequences.
func screen(c *Choice) string { return ansi.Strip(c.View()) }

// checkSize fails when a view is larger than w×h.
func checkSize(t testing.TB, view string, w, h int) {
	t.Helper()
	plain := ansi.Strip(view)
	if got := lipgloss.Height(plain); got > h {
		t.Fatalf("view is %d lines, want ≤ %d:\n%s", got, h, plain)
	}
	if got := lipgloss.Width(plain); got > w {
		t.Fatalf("view is %d columns, want ≤ %d:\n%s", got, w, plain)
	}
}

// returnsNextField reports whether cmd, run, yields huh.NextField's message.
func returnsNextField(cmd tea.Cmd) bool {
	want := reflect.TypeOf(huh.NextField())
	found := false
	runCmd(cmd, 0, func(m tea.Msg) {
		if reflect.TypeOf(m) == want {
			found = true
		}
	})
	return found
}

// runCmd runs cmd and hands every message it yields (batches and sequences
// unpacked) to f.
func runCmd(cmd tea.Cmd, depth int, f func(tea.Msg)) {
	if cmd == nil || depth > 8 {
		return
	}
	msg := cmd()
	if msg == nil {
		return
	}
	if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeOf(tea.Cmd(nil)) {
		for i := range v.Len() {
			sub, _ := v.Index(i).Interface().(tea.Cmd)
			runCmd(sub, depth+1, f)
		}
		return
	}
	f(msg)
}

// newForm builds the form the root builds around a Choice.
func newForm(c *Choice, w, h int) *huh.Form {
	return huh.NewForm(huh.NewGroup(c)).
		WithShowHelp(false).
		WithTheme(testStyles.HuhTheme()).
		WithWidth(w).
		WithHeight(h)
}

// drive sends msg to the form and feeds back every message its commands
// yield, as a program would (window size requests excepted).
func drive(f *huh.Form, msg tea.Msg) {
	queue := []tea.Msg{msg}
	for steps := 0; len(queue) > 0 && steps < 100; steps++ {
		m := queue[0]
		queue = queue[1:]
		if strings.Contains(fmt.Sprintf("%T", m), "windowSize") {
			continue
		}
		_, cmd := f.Update(m)
		runCmd(cmd, 0, func(m tea.Msg) { queue = append(queue, m) })
	}
}

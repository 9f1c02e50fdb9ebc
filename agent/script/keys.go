package script

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// KeyNames returns the named keys an autoplay sequence may press, spelled
// as [Keyboard.Press] receives them.
func KeyNames() []string { return slices.Clone(keyNames) }

var keyNames = []string{
	"up", "down", "left", "right",
	"enter", "esc", "space", "tab", "shift+tab", "backspace",
	"home", "end", "pgup", "pgdown", "shift+up", "shift+down",
	"ctrl+n", "ctrl+p", "ctrl+t", "alt+enter",
}

// Prefixes of the special entries of an autoplay sequence.
const (
	// PausePrefix starts a pause entry: "pause:500ms" waits half a second
	// more before the next key.
	PausePrefix = "pause:"
	// TextPrefix starts a text entry that is typed even when it spells a
	// key name: "text:up" types u, p.
	TextPrefix = "text:"
)

// mistaken maps key names people commonly write to the names we use, or
// to "" for keys autoplay does not press.
var mistaken = map[string]string{
	"escape": "esc", "return": "enter", "ret": "enter",
	"pgdn": "pgdown", "pageup": "pgup", "pagedown": "pgdown", "page_up": "pgup", "page_down": "pgdown",
	"backtab": "shift+tab", "bs": "backspace", "arrowup": "up", "arrowdown": "down",
	"arrowleft": "left", "arrowright": "right", "spacebar": "space",
	"delete": "", "del": "", "insert": "", "ins": "",
}

// CheckKey reports whether s is a valid entry of an autoplay sequence: a
// name from [KeyNames], a pause ("pause:500ms"), or text to type (any
// other string, or "text:" and the text). Text must not hold control
// characters (use "enter" or "alt+enter" for line breaks), and strings
// that look like key names but are not one, such as "ctrl+x" or "escape",
// are refused so a typo is not typed out as text.
func CheckKey(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("is empty; use a key name such as \"enter\", text to type, or \"pause:500ms\"")
	case slices.Contains(keyNames, s):
		return nil
	case strings.HasPrefix(s, PausePrefix):
		d, err := time.ParseDuration(strings.TrimPrefix(s, PausePrefix))
		if err != nil || d < 0 {
			return fmt.Errorf("%q is not a valid pause; write a duration after %q, as in \"pause:500ms\"", s, PausePrefix)
		}
		return nil
	case strings.HasPrefix(s, TextPrefix):
		t := strings.TrimPrefix(s, TextPrefix)
		if t == "" {
			return fmt.Errorf("%q has no text after %q", s, TextPrefix)
		}
		return checkText(s, t)
	}
	if to, ok := mistaken[strings.ToLower(s)]; ok {
		if to == "" {
			return fmt.Errorf("%q is not a key autoplay can press; the names are %s (write %q to type the word)",
				s, strings.Join(keyNames, ", "), TextPrefix+s)
		}
		return fmt.Errorf("%q is not a key name here; write %q (or %q to type the word)", s, to, TextPrefix+s)
	}
	if looksLikeKey(s) {
		return fmt.Errorf("%q is not a known key name; the names are %s (write %q to type it as text)",
			s, strings.Join(keyNames, ", "), TextPrefix+s)
	}
	return checkText(s, s)
}

func checkText(s, t string) error {
	if !utf8.ValidString(t) {
		return fmt.Errorf("%q is not valid UTF-8", s)
	}
	for _, r := range t {
		if unicode.IsControl(r) {
			return fmt.Errorf("%q holds the control character %U; press keys such as \"enter\" or \"tab\" by name", s, r)
		}
	}
	return nil
}

// looksLikeKey reports whether s is shaped like a modifier combination
// ("ctrl+x", "shift+up") or a function key ("f5").
func looksLikeKey(s string) bool {
	lower := strings.ToLower(s)
	if len(lower) >= 2 && len(lower) <= 3 && lower[0] == 'f' && strings.Trim(lower[1:], "0123456789") == "" {
		return true
	}
	parts := strings.Split(lower, "+")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts[:len(parts)-1] {
		switch p {
		case "ctrl", "alt", "shift", "meta", "super", "cmd", "opt", "option", "control":
		default:
			return false
		}
	}
	return parts[len(parts)-1] != ""
}

// press is one step of a played sequence: a key to press, or a pause.
type press struct {
	key   string        // a name from keyNames or one typed character
	typed bool          // key is a character of a text entry
	entry int           // index of the sequence entry it came from
	pause time.Duration // when key is ""
}

// expand turns a sequence into presses: text entries become one press per
// character, a typed space being "space".
func expand(keys []string) []press {
	var out []press
	for i, k := range keys {
		switch {
		case slices.Contains(keyNames, k):
			out = append(out, press{key: k, entry: i})
		case strings.HasPrefix(k, PausePrefix):
			d, err := time.ParseDuration(strings.TrimPrefix(k, PausePrefix))
			if err == nil && d > 0 {
				out = append(out, press{pause: d})
			}
		default:
			t := strings.TrimPrefix(k, TextPrefix)
			for _, r := range t {
				key := string(r)
				if r == ' ' {
					key = "space"
				}
				out = append(out, press{key: key, typed: true, entry: i})
			}
		}
	}
	return out
}

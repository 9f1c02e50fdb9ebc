package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// Help written to a pipe has no lines padded with spaces (fang pads
// every line to 120 columns when there is no terminal).
func TestHelpHasNoTrailingSpaces(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {}, {"setup", "--help"}, {"hook", "gemini", "--help"}, {"ask", "--help"}} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, openTTY: mustNotOpenTTY(t)})
		if code != 0 || stdout.Len() == 0 {
			t.Fatalf("%v: exit %d, stdout %q, stderr %q", args, code, stdout.String(), stderr.String())
		}
		for i, l := range strings.Split(stdout.String(), "\n") {
			if strings.HasSuffix(l, " ") {
				t.Errorf("%v: line %d ends in spaces: %q", args, i+1, l)
				break
			}
		}
	}
}

func TestTrimLines(t *testing.T) {
	var b bytes.Buffer
	w := &trimLines{w: &b}
	for _, p := range []string{"a  ", " b   ", "\n", "  c\n  \n", "d  "} {
		if n, err := w.Write([]byte(p)); err != nil || n != len(p) {
			t.Fatalf("Write(%q) = %d, %v", p, n, err)
		}
	}
	if got, want := b.String(), "a   b\n  c\n\nd"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

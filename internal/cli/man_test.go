package cli

import (
	"context"
	"os"
	"strings"
	"testing"
)

// TestManPage is issue 10's man page: one paragraph per paragraph of the
// help (not one per wrapped line), short flags as "-f, --format", and no
// path of the machine that generated it.
func TestManPage(t *testing.T) {
	var stdout, stderr strings.Builder
	code := run(context.Background(), []string{"man"}, env{
		stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
		environ: []string{"XDG_RUNTIME_DIR=/run/user/4242", "TMPDIR=/machine/tmp", "HOME=/home/someone"},
	})
	page := stdout.String()
	if code != 0 || !strings.HasPrefix(page, ".TH ASKTUI 1") {
		t.Fatalf("asktui man: exit %d, stderr %q, page starts %.40q", code, stderr.String(), page)
	}
	desc := page[strings.Index(page, ".SH DESCRIPTION"):strings.Index(page, ".SH COMMANDS")]
	if n := strings.Count(desc, ".PP"); n != 1 {
		t.Errorf("the description has %d paragraph breaks, want 1 (two paragraphs):\n%s", n, desc)
	}
	if !strings.Contains(desc, "in the terminal, and hands your answers back") {
		t.Errorf("a paragraph's lines are not joined:\n%s", desc)
	}
	for _, want := range []string{`\fB-f, --format\fP`, `\fB-o, --option\fP`, `\fB-t, --timeout\fP`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not show %s", want)
		}
	}
	// Every item of a list is a tagged paragraph, the first too (issue
	// 18: mango leaves out the first one's .TP, and the tag ran into its
	// text).
	lines := strings.Split(page, "\n")
	for i, line := range lines {
		if strings.HasPrefix(line, `\fB-`) && (i == 0 || lines[i-1] != ".TP") {
			t.Errorf("the option %s is not a tagged paragraph (the line before it is %q)", line, lines[i-1])
		}
	}
	for _, local := range []string{"/run/user/4242", "/machine/tmp", "/home/someone", os.TempDir() + "/asktui-"} {
		if strings.Contains(page, local) {
			t.Errorf("the page holds the path %s of the machine that made it", local)
		}
	}
}

func TestManText(t *testing.T) {
	in := "One paragraph\nwrapped.\n\nThe request comes from:\n  FILE   a file, when\n         it exists\n  -      standard input\n\nLast."
	want := "One paragraph wrapped.\nThe request comes from:\n  FILE   a file, when it exists\n  -      standard input\nLast."
	if got := manText(in); got != want {
		t.Errorf("manText =\n%s\nwant\n%s", got, want)
	}
}

package highlight

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/styles"
)

// The definitions are chroma's, byte for byte, from the version go.mod
// requires, and exactly those lexers.txt lists.
func TestLexersAreChromas(t *testing.T) {
	out, err := exec.CommandContext(context.Background(), "go", "list", "-m", "-f", "{{.Dir}}", "github.com/alecthomas/chroma/v2").Output()
	if err != nil {
		t.Skipf("cannot find the chroma module: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "lexers", "embedded")
	list, err := os.ReadFile("lexers.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(list))
	var got []string
	paths, _ := filepath.Glob("lexers/*.xml")
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".xml")
		got = append(got, name)
		ours, _ := os.ReadFile(p)                                   //nolint:gosec // a path the test made, or its testdata
		theirs, err := os.ReadFile(filepath.Join(dir, name+".xml")) //nolint:gosec // a path the test made, or its testdata
		if err != nil || !bytes.Equal(ours, theirs) {
			t.Errorf("lexers/%s.xml differs from chroma's (%v): run go generate ./internal/highlight", name, err)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("lexers/ holds %v, lexers.txt lists %v: run go generate ./internal/highlight", got, want)
	}
}

// What agents write after a fence finds its lexer; every lexer a
// definition hands over to (<using lexer="Bash"/>) is in the set.
func TestLanguages(t *testing.T) {
	for _, name := range []string{"go", "golang", "Go", "py", "python", "js", "javascript", "ts", "tsx", "typescript",
		"json", "yaml", "sh", "bash", "zsh", "shell", "diff", "sql", "rust", "rs", "c", "cpp", "c++", "csharp", "java",
		"kotlin", "rb", "ruby", "php", "html", "css", "xml", "toml", "dockerfile", "makefile", "hcl", "terraform",
		"proto", "graphql", "lua", "swift", "scala", "elixir", "haskell", "zig", "nix", "perl", "r", "ini", "powershell"} {
		if Language(name) == nil {
			t.Errorf("no lexer for %q", name)
		}
	}
	if l := Language("no-such-language"); l != nil {
		t.Errorf("a lexer for an unknown language: %s", l.Config().Name)
	}
	for path, want := range map[string]string{"main.go": "Go", "app.py": "Python", "Dockerfile": "Docker", "x.tsx": "TypeScript", "README": ""} {
		got := ""
		if l := File(path); l != nil {
			got = l.Config().Name
		}
		if got != want {
			t.Errorf("File(%q) = %q, want %q", path, got, want)
		}
	}
	using := regexp.MustCompile(`lexer="([^"]+)"`)
	paths, _ := filepath.Glob("lexers/*.xml")
	for _, p := range paths {
		b, _ := os.ReadFile(p) //nolint:gosec // a path the test made, or its testdata
		for _, m := range using.FindAllSubmatch(b, -1) {
			if registry().Get(string(m[1])) == nil {
				t.Errorf("%s hands over to %s, which is not in the set", p, m[1])
			}
		}
	}
}

func TestLines(t *testing.T) {
	st := styles.For(styles.ThemeDark, true)
	code := "package main\n\nfunc main() {\n\treturn \"x\" // done\n}\n"
	lines := Lines(Language("go"), code, st)
	if len(lines) != 5 {
		t.Fatalf("%d lines, want 5: %q", len(lines), lines)
	}
	for i, l := range strings.Split(strings.TrimSuffix(code, "\n"), "\n") {
		// lipgloss draws a tab as four spaces.
		if l = strings.ReplaceAll(l, "\t", "    "); ansi.Strip(lines[i]) != l {
			t.Errorf("line %d is %q, want %q", i, ansi.Strip(lines[i]), l)
		}
	}
	if !strings.Contains(lines[2], st.Code.Keyword.Render("func")) {
		t.Errorf("func is not a keyword: %q", lines[2])
	}
	if !strings.Contains(lines[3], st.Code.Comment.Render("// done")) {
		t.Errorf("the comment is not one: %q", lines[3])
	}
	plain := Lines(nil, "a\nb", st)
	if len(plain) != 2 || plain[0] != st.Code.Plain.Render("a") {
		t.Errorf("plain lines %q", plain)
	}
	// Every lexer in the set lexes something.
	for _, l := range registry().Lexers {
		if _, err := chroma.Coalesce(l).Tokenise(nil, "x = 1 # \"s\" <a> {b}\n"); err != nil {
			t.Errorf("%s: %v", l.Config().Name, err)
		}
	}
}

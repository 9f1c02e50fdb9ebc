package configfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"
	"github.com/charmbracelet/x/exp/golden"
)

// The entries the tests write, in the shape of asktui's (this package
// does not know them).
var (
	testServer = map[string]any{"type": "stdio", "command": "/opt/asktui/bin/asktui", "args": []any{"mcp"}, "env": map[string]any{}}
	testHook   = map[string]any{"type": "command", "command": "/opt/asktui/bin/asktui", "args": []any{"hook", "claude", "--timeout", "9m50s"}, "timeout": 600}
	testHooks  = map[string][]any{
		"PreToolUse":        {map[string]any{"matcher": "AskUserQuestion", "hooks": []any{testHook}}},
		"PermissionRequest": {map[string]any{"matcher": "*", "hooks": []any{testHook}}},
	}
)

// testOurs claims a handler that runs "asktui hook …", as asktui's
// own test does.
func testOurs(h map[string]any) bool {
	line, _ := h["command"].(string)
	if args, ok := h["args"].([]any); ok {
		for _, a := range args {
			s, _ := a.(string)
			line += " " + s
		}
	}
	return strings.Contains(line, "asktui hook ")
}

func setAll(t *testing.T, d *JSON) (bool, bool) {
	t.Helper()
	c1, err := d.Set(testServer, "mcpServers", "asktui")
	if err != nil {
		t.Fatal(err)
	}
	c2, err := d.SetHooks(testHooks, testOurs, "hooks")
	if err != nil {
		t.Fatal(err)
	}
	return c1, c2
}

func deleteAll(t *testing.T, d *JSON) {
	t.Helper()
	if _, err := d.Delete("mcpServers", "asktui"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.DeleteHooks(testOurs, "hooks"); err != nil {
		t.Fatal(err)
	}
}

func root(t *testing.T, d *JSON) any {
	t.Helper()
	v, _ := d.Get()
	return v
}

// TestJSON adds an MCP server entry and hooks to real clients' files:
// the diff (golden) shows what changed and that nothing else did; the
// result parses, is standard JSON when the file was, holds the entries,
// takes no change the second time, decodes as before once the entries
// are taken out again, and then, for a file that had none, is the
// original byte for byte.
func TestJSON(t *testing.T) {
	for _, tt := range []struct {
		fixture string
		// undoIdentical: removing the entries gives back the file. Not
		// so where the file had an empty object that setup filled
		// (undo removes the objects it empties).
		undoIdentical bool
	}{
		{"claude-settings.json", true},
		{"claude.json", true},
		{"gemini-settings.jsonc", true},
		{"tabs.json", true},
		{"minified.json", false},
		{"trailing-commas.jsonc", false},
		{"old-asktui.json", false},
		{"empty.json", false},
	} {
		t.Run(tt.fixture, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "fixtures", tt.fixture))
			if err != nil {
				t.Fatal(err)
			}
			d, err := ParseJSON(tt.fixture, src)
			if err != nil {
				t.Fatal(err)
			}
			if c1, c2 := setAll(t, d); !c1 || !c2 {
				t.Fatalf("changed: server %v, hooks %v", c1, c2)
			}
			after := d.Bytes()
			golden.RequireEqual(t, udiff.Unified(tt.fixture, tt.fixture, string(src), string(after)))

			if json.Valid(src) && !json.Valid(after) {
				t.Fatalf("standard JSON in, other JSON out:\n%s", after)
			}
			d2, err := ParseJSON(tt.fixture, after)
			if err != nil {
				t.Fatalf("the result does not parse: %v\n%s", err, after)
			}
			if got, _ := d2.Get("mcpServers", "asktui"); !reflect.DeepEqual(got, must(normalize(testServer))) {
				t.Errorf("mcpServers.asktui = %v", got)
			}
			for event, groups := range testHooks {
				var ours []any
				events, _ := d2.Get("hooks", event)
				for _, g := range events.([]any) {
					for _, h := range g.(map[string]any)["hooks"].([]any) {
						if testOurs(h.(map[string]any)) {
							ours = append(ours, g)
						}
					}
				}
				if !reflect.DeepEqual(ours, must(normalize(groups))) {
					t.Errorf("%s: our groups are %v", event, ours)
				}
			}

			if c1, c2 := setAll(t, d2); c1 || c2 || !bytes.Equal(d2.Bytes(), after) {
				t.Errorf("a second run changed the file (server %v, hooks %v):\n%s", c1, c2, d2.Bytes())
			}

			orig, _ := ParseJSON(tt.fixture, src)
			deleteAll(t, orig)
			deleteAll(t, d2)
			// (Undo removes the objects it empties, even one that was
			// empty before.)
			if a, b := dropEmpty(root(t, orig)), dropEmpty(root(t, d2)); !reflect.DeepEqual(a, b) {
				t.Errorf("the rest of the file changed:\nbefore %v\nafter  %v", a, b)
			}
			if tt.undoIdentical && !bytes.Equal(d2.Bytes(), src) {
				t.Errorf("undo does not give the file back:\n%s", udiff.Unified("original", "undone", string(src), string(d2.Bytes())))
			}
			if !hasOurs(t, src) && len(bytes.TrimSpace(src)) > 0 {
				if again, _ := ParseJSON(tt.fixture, src); !bytes.Equal(again.Bytes(), src) {
					t.Error("parsing alone changed the file")
				}
			}
		})
	}
}

// dropEmpty removes the empty "hooks" and "mcpServers" of a decoded file.
func dropEmpty(v any) any {
	m := v.(map[string]any)
	for _, k := range []string{"hooks", "mcpServers"} {
		if sub, ok := m[k].(map[string]any); ok && len(sub) == 0 {
			delete(m, k)
		}
	}
	return m
}

func hasOurs(t *testing.T, src []byte) bool {
	d, err := ParseJSON("x", src)
	if err != nil {
		t.Fatal(err)
	}
	_, ok := d.Get("mcpServers", "asktui")
	return ok
}

func must(v any, err error) any {
	if err != nil {
		panic(err)
	}
	return v
}

// TestJSONUpdatesInPlace: an older entry of ours is replaced where it
// stands, and our handler is taken out of a group it shares with
// someone else's, which stays.
func TestJSONUpdatesInPlace(t *testing.T) {
	src, _ := os.ReadFile(filepath.Join("testdata", "fixtures", "old-asktui.json"))
	d, _ := ParseJSON("old-asktui.json", src)
	setAll(t, d)
	servers, _ := d.Get("mcpServers")
	if keys := keysOf(servers.(map[string]any)); !reflect.DeepEqual(keys, []string{"asktui", "other"}) {
		t.Errorf("servers %v", keys)
	}
	pre, _ := d.Get("hooks", "PreToolUse")
	if g := pre.([]any); len(g) != 2 || g[0].(map[string]any)["matcher"] != "AskUserQuestion" || g[1].(map[string]any)["matcher"] != "Bash" {
		t.Errorf("PreToolUse: our group should stay first, replaced: %v", g)
	}
	perm, _ := d.Get("hooks", "PermissionRequest")
	g := perm.([]any)
	if len(g) != 2 {
		t.Fatalf("PermissionRequest: %v", g)
	}
	shared := g[0].(map[string]any)["hooks"].([]any)
	if len(shared) != 1 || shared[0].(map[string]any)["command"] != "~/bin/log-permission.sh" {
		t.Errorf("the shared group should keep only the user's handler: %v", shared)
	}
	// The entry keeps the place of the old one: before "other".
	if i, j := bytes.Index(d.Bytes(), []byte(`"asktui"`)), bytes.Index(d.Bytes(), []byte(`"other"`)); i > j {
		t.Errorf("mcpServers.asktui moved:\n%s", d.Bytes())
	}
}

func keysOf(m map[string]any) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestJSONRefuses: what cannot be parsed, or does not have the shape the
// entry goes into, is refused with the line and what is wrong.
func TestJSONRefuses(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		line      int
		want      string
	}{
		{"syntax", "{\n  \"a\": 1,\n  \"b\" 2\n}\n", 3, "not valid JSON"},
		{"unclosed", "{\n  \"a\": {\n", 3, "not valid JSON"},
		{"array", "[1, 2]\n", 1, "the file holds an array, where an object belongs"},
		{"servers not an object", "{\n  \"mcpServers\": \"none\"\n}\n", 2, `"mcpServers" is a string, where an object belongs`},
		{"hooks not an object", "{\n  \"hooks\": []\n}\n", 2, `"hooks" is an array, where an object belongs`},
		{"event not an array", "{\n  \"hooks\": {\"PreToolUse\": {}}\n}\n", 2, `"hooks.PreToolUse" is an object, where an array belongs`},
		{"duplicate", "{\n  \"mcpServers\": {},\n  \"mcpServers\": {}\n}\n", 3, `"mcpServers" appears twice (lines 2 and 3): keep one`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := ParseJSON("settings.json", []byte(tt.src))
			if err == nil {
				_, err = d.Set(testServer, "mcpServers", "asktui")
			}
			if err == nil {
				_, err = d.SetHooks(testHooks, testOurs, "hooks")
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a ParseError", err)
			}
			if pe.File != "settings.json" || pe.Line != tt.line || !strings.Contains(pe.Problem, tt.want) {
				t.Errorf("got %v; want line %d, %q", err, tt.line, tt.want)
			}
		})
	}
}

// TestJSONComments: comments around what is added or removed stay
// where they belong, and so does the closing bracket.
func TestJSONComments(t *testing.T) {
	for _, tt := range []struct{ name, src, want string }{
		{
			"member",
			"{\n  \"mcpServers\": {\n    \"other\": {}, // about other\n    // about asktui\n    \"asktui\": {\"type\": \"stdio\"} // old\n  }\n}\n",
			"{\n  \"mcpServers\": {\n    \"other\": {} // about other\n  }\n}\n",
		},
		{
			"pruned",
			"{\n  \"a\": 1, // about a\n  \"mcpServers\": {\n    \"asktui\": {}\n  }\n}\n",
			"{\n  \"a\": 1 // about a\n}\n",
		},
		{
			"first of several",
			"{\n  \"mcpServers\": {\n    \"asktui\": {},\n    // keep\n    \"other\": {}\n  }\n}\n",
			"{\n  \"mcpServers\": {\n    // keep\n    \"other\": {}\n  }\n}\n",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := ParseJSON("s.json", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := d.Delete("mcpServers", "asktui"); err != nil {
				t.Fatal(err)
			}
			if got := string(d.Bytes()); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

package configfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"
	"github.com/charmbracelet/x/exp/golden"
)

// testTable is a table in the shape of asktui's [mcp_servers.asktui].
const testTable = `[mcp_servers.asktui]
command = "/opt/asktui/bin/asktui"
args = ["mcp"]
# Codex starts stdio servers without these; the socket's default path uses them.
env_vars = ["XDG_RUNTIME_DIR", "TMPDIR"]
tool_timeout_sec = 3600
`

var testKey = []string{"mcp_servers", "asktui"}

// TestTOML adds the table to Codex's config.toml as people keep it: the
// diff (golden) shows what changed; the result parses, holds the table,
// takes no change the second time, and decodes as before once the table
// is removed again, which gives back the file itself when it had none.
func TestTOML(t *testing.T) {
	for _, tt := range []struct {
		fixture       string
		undoIdentical bool
	}{
		{"codex-config.toml", true},
		{"codex-old-asktui.toml", false},
		{"codex-no-newline.toml", false},
		{"codex-empty.toml", true},
	} {
		t.Run(tt.fixture, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "fixtures", tt.fixture))
			if err != nil {
				t.Fatal(err)
			}
			d, err := ParseTOML(tt.fixture, src)
			if err != nil {
				t.Fatal(err)
			}
			if changed, err := d.SetTable(testTable, testKey...); err != nil || !changed {
				t.Fatalf("changed %v, err %v", changed, err)
			}
			after := d.Bytes()
			golden.RequireEqual(t, udiff.Unified(tt.fixture, tt.fixture, string(src), string(after)))

			d2, err := ParseTOML(tt.fixture, after)
			if err != nil {
				t.Fatalf("the result does not parse: %v\n%s", err, after)
			}
			tm, _ := decodeTOML("table", []byte(testTable))
			want, _ := lookupKey(tm, testKey)
			if got, _ := d2.Get(testKey...); !reflect.DeepEqual(got, want) {
				t.Errorf("mcp_servers.asktui = %v", got)
			}
			if changed, err := d2.SetTable(testTable, testKey...); err != nil || changed || !bytes.Equal(d2.Bytes(), after) {
				t.Errorf("a second run: changed %v, err %v", changed, err)
			}
			if changed, err := d2.DeleteTable(testKey...); err != nil || !changed {
				t.Fatalf("delete: changed %v, err %v", changed, err)
			}
			before, _ := decodeTOML("", src)
			deleteKey(before, testKey)
			if got, _ := decodeTOML("", d2.Bytes()); !reflect.DeepEqual(got, before) {
				t.Errorf("the rest changed:\nbefore %v\nafter  %v", before, got)
			}
			if tt.undoIdentical && !bytes.Equal(d2.Bytes(), src) {
				t.Errorf("undo does not give the file back:\n%s", udiff.Unified("original", "undone", string(src), string(d2.Bytes())))
			}
		})
	}
}

// TestTOMLRefuses: a file that is not TOML, or that defines the table in
// a way a text edit cannot replace, is refused with the line.
func TestTOMLRefuses(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		line      int
		want      string
	}{
		{"syntax", "model = \"o3\"\n[mcp_servers\n", 2, "not valid TOML"},
		{"duplicate table", "[a]\nx = 1\n[a]\ny = 2\n", 3, "not valid TOML"},
		{"inline", "[mcp_servers]\nasktui = { command = \"x\" }\n", 2, "defines mcp_servers.asktui as an inline table"},
		{"dotted", "[mcp_servers]\nasktui.command = \"x\"\n", 2, "defines mcp_servers.asktui.command as a dotted key"},
		{"inline parent", "mcp_servers = { other = { command = \"x\" } }\n", 1, "defines mcp_servers as an inline table, which a [mcp_servers.asktui] table cannot extend"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := ParseTOML("config.toml", []byte(tt.src))
			if err == nil {
				_, err = d.SetTable(testTable, testKey...)
			}
			if err == nil {
				t.Fatal("accepted")
			}
			var pe *ParseError
			switch {
			case errors.As(err, &pe):
				if pe.Line != tt.line || !strings.Contains(pe.Problem, tt.want) {
					t.Errorf("got %v; want line %d, %q", err, tt.line, tt.want)
				}
			case !strings.Contains(err.Error(), "config.toml line "+strconv.Itoa(tt.line)+" "+tt.want):
				t.Errorf("got %v; want line %d, %q", err, tt.line, tt.want)
			}
		})
	}
}

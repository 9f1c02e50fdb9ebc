package script

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// hostile are scenario files of about 200 KB that nest deeply in each way
// YAML allows. Handed to the YAML parser, the first, at twice the size,
// grew `asktui demo` past 24 GB.
func hostile() map[string]string {
	const n = 100_000 // 200 KB of two-byte levels
	return map[string]string{
		"flow lists":         "agents: " + strings.Repeat("[", n) + strings.Repeat("]", n),
		"flow mappings":      "agents: " + strings.Repeat("{a: ", n/2),
		"unclosed flow":      strings.Repeat("[", 2*n),
		"JSON":               `{"agents": ` + strings.Repeat(`[{"a":`, n/4),
		"compact lists":      "agents:\n" + strings.Repeat("- ", n) + "x\n",
		"compact keys":       "agents:\n" + strings.Repeat("? ", n) + "x\n",
		"after an anchor":    "agents: &a !!seq " + strings.Repeat("[", n),
		"tool args":          "agents:\n  - id: a\n    steps:\n      - tool: {name: t, args: " + strings.Repeat("[", n) + "}\n",
		"after a block text": "x-a: |\n  [[[[\nagents: " + strings.Repeat("[", n),
		"after a quote":      "x-a: 'it''s [[['\nx-b: \"[[\\\"[\"\nagents: " + strings.Repeat("[", n),
	}
}

func TestParseRefusesDeepNesting(t *testing.T) {
	for name, src := range hostile() {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("deep", []byte(src))
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrTooDeep) {
				t.Fatalf("Parse = %v, want a ParseError wrapping ErrTooDeep", err)
			}
			if !strings.Contains(err.Error(), "nest more than 256 deep") || pe.Line == 0 {
				t.Errorf("message %q (line %d) should give the limit and the line", err, pe.Line)
			}
		})
	}
}

// TestParseDeepNestingIsCheap fails when a hostile file reaches the YAML
// parser: refusing it costs a few allocations, parsing it millions. The
// file of the report (400 KB of nested brackets) is over the size limit
// too; at half the size it is refused for its nesting.
func TestParseDeepNestingIsCheap(t *testing.T) {
	const n = 200_000
	report := []byte("agents: " + strings.Repeat("[", n) + strings.Repeat("]", n))
	for _, data := range [][]byte{report, []byte(hostile()["flow lists"])} {
		allocs := testing.AllocsPerRun(3, func() {
			if _, err := Parse("deep", data); err == nil {
				t.Fatal("accepted")
			}
		})
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Parse("deep", data)
		runtime.ReadMemStats(&after)
		if allocs > 20 || after.TotalAlloc-before.TotalAlloc > 64<<10 {
			t.Errorf("refusing a %d-byte nested file took %v allocations and %d bytes; want it refused before parsing",
				len(data), allocs, after.TotalAlloc-before.TotalAlloc)
		}
		if !errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrTooDeep) {
			t.Errorf("Parse = %v, want ErrTooLarge or ErrTooDeep", err)
		}
	}
}

func BenchmarkParseDeepNesting(b *testing.B) {
	data := []byte(hostile()["flow lists"])
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		_, _ = Parse("deep", data)
	}
}

func TestParseRefusesLargeFiles(t *testing.T) {
	big := "agents: [{id: a, steps: [{say: \"" + strings.Repeat("x", MaxFileBytes) + "\"}]}]\n"
	_, err := Parse("big", []byte(big))
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "over the limit of 262144 bytes (256 KiB)") {
		t.Errorf("Parse(big) = %v, want ErrTooLarge giving the limit", err)
	}
	path := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(path, []byte(big), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), path) {
		t.Errorf("Load(big) = %v, want ErrTooLarge naming the file", err)
	}
}

// TestParseAcceptsDeepButFairNesting: what the decoder's own rules allow
// (when steps nested 30 deep, tool arguments 60 deep) stays under
// MaxNesting, in block and in flow style.
func TestParseAcceptsDeepButFairNesting(t *testing.T) {
	var b strings.Builder
	b.WriteString("agents:\n  - id: a\n    steps:\n      - ask: {questions: [{id: q, question: Q}]}\n")
	indent := "      "
	for range 30 {
		b.WriteString(indent + "- when:\n" + indent + "    id: q\n" + indent + "    skipped: true\n" + indent + "    then:\n")
		indent += "      "
	}
	b.WriteString(indent + "- tool:\n" + indent + "    name: t\n" + indent + "    result: |\n" +
		indent + "      [[[[ {{{{ - - - - \"'\n" + indent + "    args: " + strings.Repeat("[", 60) + strings.Repeat("]", 60) + "\n")
	sc, err := Parse("fair", []byte(b.String()))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if got := len(collect(sc, StepWhen)); got != 30 {
		t.Errorf("got %d when steps, want 30", got)
	}
}

func TestNestedWithin(t *testing.T) {
	tests := []struct {
		src   string
		depth int // the least limit it is within
	}{
		{"a: b\n", 1},
		{"a:\n  b:\n    c: d\n", 3},
		{"- - - x\n", 4},
		{"a: [1, [2, {b: [3]}]]\n", 5},
		{"a: 'it''s [[['\n", 1},
		{"a: \"\\\"[[[\"\n", 1},
		{"a: x[y\n", 1},
		{"a: |\n  [[[\n  - - -\nb: c\n", 1},
		{"- |\n  [[[\n- c\n", 2},
		{"a: \"multi\n  [[[ line\"\n", 1},
		{"a: [1,\n  [2,\n   [3]]]\n", 4},
		{"a: 1 # [[[\n", 1},
		{"a: &x [1]\nb: !!seq [2]\n", 2},
	}
	for _, tt := range tests {
		if _, _, ok := nestedWithin([]byte(tt.src), tt.depth); !ok {
			t.Errorf("%q is not within %d", tt.src, tt.depth)
		}
		if _, _, ok := nestedWithin([]byte(tt.src), tt.depth-1); ok && tt.depth > 1 {
			t.Errorf("%q is within %d, want it to nest %d deep", tt.src, tt.depth-1, tt.depth)
		}
	}
}

// FuzzNestedWithin checks the scan against the parser: a file the scan
// finds within a limit never nests more than twice as deep in the parsed
// tree.
func FuzzNestedWithin(f *testing.F) {
	for _, s := range []string{"a: [1, {b: [2]}]\n", "- - - x\n", "a:\n  - b:\n    - c\n", "a: |\n  [[\n", "a: 'x\n  [[['\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		file, err := parser.ParseBytes(data, 0)
		if err != nil {
			return
		}
		depth := 0
		for _, doc := range file.Docs {
			depth = max(depth, treeDepth(doc.Body, 0))
		}
		if limit := depth/2 - 1; limit > 0 {
			if _, _, ok := nestedWithin(data, limit); ok {
				t.Fatalf("the scan finds %q within %d, but it nests %d deep", data, limit, depth)
			}
		}
	})
}

// treeDepth is the nesting of lists and mappings in a parsed node.
func treeDepth(n ast.Node, depth int) int {
	if depth > 2*MaxNesting {
		return depth
	}
	switch v := n.(type) {
	case *ast.MappingNode:
		d := 0
		for _, mv := range v.Values {
			d = max(d, treeDepth(mv, depth))
		}
		return max(d, depth)
	case *ast.MappingValueNode:
		return max(treeDepth(v.Key, depth+1), treeDepth(v.Value, depth+1))
	case *ast.MappingKeyNode:
		return treeDepth(v.Value, depth)
	case *ast.SequenceNode:
		d := depth + 1
		for _, e := range v.Values {
			d = max(d, treeDepth(e, depth+1))
		}
		return d
	case *ast.AnchorNode:
		return treeDepth(v.Value, depth)
	case *ast.TagNode:
		return treeDepth(v.Value, depth)
	}
	return depth
}

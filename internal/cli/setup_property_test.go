package cli

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSetupPropertyUndoIsIdentity: for random valid configurations (JSON,
// JSON with comments and trailing commas, TOML, in every layout, or no
// file at all), setup then --undo gives back every file byte for byte
// (and no file where there was none), and setup twice is setup once.
// ASKTUI_PROPERTY_ROUNDS sets the rounds per client; a failure names its
// seed.
func TestSetupPropertyUndoIsIdentity(t *testing.T) {
	rounds := 10
	if n, err := strconv.Atoi(os.Getenv("ASKTUI_PROPERTY_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	files := map[string][]struct {
		rel  string
		toml bool
	}{
		"claude":   {{rel: ".claude.json"}, {rel: ".claude/settings.json"}},
		"codex":    {{rel: ".codex/config.toml", toml: true}, {rel: ".codex/hooks.json"}},
		"gemini":   {{rel: ".gemini/settings.json"}},
		"copilot":  {{rel: ".copilot/mcp-config.json"}, {rel: ".copilot/hooks/asktui.json"}},
		"qwen":     {{rel: ".qwen/settings.json"}},
		"opencode": {{rel: ".config/opencode/opencode.json"}},
	}
	for _, client := range setupClients {
		for round := range rounds {
			seed := uint64(round)*1_000_003 + uint64(len(client))
			rng := rand.New(rand.NewPCG(seed, seed)) //nolint:gosec // a seeded source, so that a failing case can be replayed
			home := t.TempDir()
			orig := map[string][]byte{}
			for _, f := range files[client] {
				if rng.IntN(4) == 0 {
					continue // no file
				}
				var b []byte
				if f.toml {
					b = randomTOML(rng)
				} else {
					b = randomJSON(rng)
				}
				path := filepath.Join(home, f.rel)
				if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, b, 0o600); err != nil {
					t.Fatal(err)
				}
				orig[f.rel] = b
			}
			fail := func(format string, args ...any) {
				t.Helper()
				var b strings.Builder
				for rel, c := range orig {
					fmt.Fprintf(&b, "--- %s\n%s\n", rel, c)
				}
				t.Fatalf("%s, round %d (seed %d): %s\nthe files before:\n%s", client, round, seed, fmt.Sprintf(format, args...), b.String())
			}
			read := func() map[string][]byte {
				got := map[string][]byte{}
				for _, f := range files[client] {
					if b, err := os.ReadFile(filepath.Join(home, f.rel)); err == nil { //nolint:gosec // a path the test made
						got[f.rel] = b
					}
				}
				return got
			}
			if out := runSetupCLI(t, home, nil, "setup", client); out.code != 0 {
				fail("setup: exit %d\n%s%s", out.code, out.stdout, out.stderr)
			}
			once := read()
			if out := runSetupCLI(t, home, nil, "setup", client); out.code != 0 || strings.Contains(out.stdout, "updated") {
				fail("setup again: exit %d\n%s%s", out.code, out.stdout, out.stderr)
			}
			for rel, b := range read() {
				if !bytes.Equal(b, once[rel]) {
					fail("setup twice changed %s:\n%s\nafter once:\n%s", rel, b, once[rel])
				}
			}
			if out := runSetupCLI(t, home, nil, "setup", client, "--undo"); out.code != 0 {
				fail("undo: exit %d\n%s%s", out.code, out.stdout, out.stderr)
			}
			got := read()
			for _, f := range files[client] {
				want, had := orig[f.rel]
				b, has := got[f.rel]
				switch {
				case had != has:
					fail("%s: there before %v, after setup and undo %v:\n%s", f.rel, had, has, b)
				case !bytes.Equal(b, want):
					fail("%s after setup and undo:\n%s\nwant:\n%s", f.rel, b, want)
				}
			}
		}
	}
}

// randomJSON is a settings file as people and programs write them: JSON,
// or JSON with comments and trailing commas, indented by spaces or tabs
// or on one line, perhaps with containers of asktui's entries already
// there (empty, or with others' entries).
func randomJSON(rng *rand.Rand) []byte {
	g := &jsonGen{rng: rng, indent: []string{"  ", "    ", "\t", ""}[rng.IntN(4)], jsonc: rng.IntN(2) == 0}
	var members []member
	for range rng.IntN(5) {
		members = append(members, member{key: []string{"theme", "model", "numStartups", "env", "permissions", "projects"}[rng.IntN(6)], value: g.value(2)})
	}
	if rng.IntN(2) == 0 {
		servers := []member{}
		if rng.IntN(2) == 0 {
			servers = append(servers, member{key: "other", value: obj{{key: "command", value: "other-mcp"}}})
		}
		members = append(members, member{key: "mcpServers", value: obj(servers)})
	}
	if rng.IntN(2) == 0 {
		events := []member{}
		if rng.IntN(2) == 0 {
			group := obj{{key: "matcher", value: "Bash"}, {key: "hooks", value: arr{obj{{key: "type", value: "command"}, {key: "command", value: "my-linter"}}}}}
			events = append(events, member{key: []string{"PreToolUse", "PermissionRequest", "BeforeTool"}[rng.IntN(3)], value: arr{group}})
		}
		if rng.IntN(3) == 0 {
			events = append(events, member{key: "Stop", value: arr{}})
		}
		members = append(members, member{key: "hooks", value: obj(events)})
	}
	rng.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
	seen := map[string]bool{}
	var uniq obj
	for _, m := range members {
		if !seen[m.key] {
			seen[m.key] = true
			uniq = append(uniq, m)
		}
	}
	var b strings.Builder
	g.write(&b, uniq, 0)
	if rng.IntN(3) > 0 {
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

type (
	member struct {
		key   string
		value any
	}
	obj []member
	arr []any
)

type jsonGen struct {
	rng    *rand.Rand
	indent string
	jsonc  bool
}

func (g *jsonGen) value(depth int) any {
	switch n := g.rng.IntN(7); {
	case n == 0:
		return g.rng.IntN(1000)
	case n == 1:
		return []string{"dark", "a \"quoted\" ☃", "tab\there", "\u2028", `back\slash`}[g.rng.IntN(5)]
	case n == 2:
		return g.rng.IntN(2) == 0
	case n == 3:
		return nil
	case n == 4 && depth > 0:
		var o obj
		for i := range g.rng.IntN(3) {
			o = append(o, member{key: "k" + strconv.Itoa(i), value: g.value(depth - 1)})
		}
		return o
	case n == 5 && depth > 0:
		var a arr
		for range g.rng.IntN(3) {
			a = append(a, g.value(depth-1))
		}
		return a
	}
	return "x"
}

// write lays v out at depth, with comments and trailing commas in JSONC.
func (g *jsonGen) write(b *strings.Builder, v any, depth int) {
	nl := func(d int) {
		if g.indent != "" {
			b.WriteString("\n" + strings.Repeat(g.indent, d))
		}
	}
	comment := func() {
		if g.jsonc && g.rng.IntN(4) == 0 {
			if g.rng.IntN(2) == 0 {
				b.WriteString("/* c */ ")
			} else if g.indent != "" {
				b.WriteString("// c")
				nl(depth + 1)
			}
		}
	}
	switch v := v.(type) {
	case obj:
		b.WriteString("{")
		for i, m := range v {
			nl(depth + 1)
			comment()
			fmt.Fprintf(b, "%q:", m.key)
			if g.indent != "" || g.rng.IntN(2) == 0 {
				b.WriteString(" ")
			}
			g.write(b, m.value, depth+1)
			if i < len(v)-1 || g.jsonc && g.rng.IntN(2) == 0 {
				b.WriteString(",")
			}
		}
		if len(v) > 0 {
			nl(depth)
		}
		b.WriteString("}")
	case arr:
		b.WriteString("[")
		for i, e := range v {
			nl(depth + 1)
			g.write(b, e, depth+1)
			if i < len(v)-1 || g.jsonc && g.rng.IntN(2) == 0 {
				b.WriteString(",")
			}
		}
		if len(v) > 0 {
			nl(depth)
		}
		b.WriteString("]")
	case string:
		s := strconv.Quote(v)
		if strings.Contains(v, "\u2028") {
			s = `"\u2028"`
		}
		b.WriteString(s)
	case nil:
		b.WriteString("null")
	default:
		fmt.Fprint(b, v)
	}
}

// randomTOML is a Codex config.toml as people write it: keys, tables,
// comments, blank lines, an [mcp_servers.*] of someone else's, perhaps
// no final newline.
func randomTOML(rng *rand.Rand) []byte {
	var lines []string
	for range rng.IntN(3) {
		if rng.IntN(2) == 0 {
			lines = append(lines, "# a comment")
		} else {
			lines = append(lines, "")
		}
	}
	if rng.IntN(2) == 0 {
		lines = append(lines, fmt.Sprintf("model = %q", []string{"gpt-5", "o3", "a \"q\""}[rng.IntN(3)]))
	}
	lines = append(lines, "approval_policy = \"on-request\" # mine")
	tables := []string{"[profiles.fast]\nmodel = \"o4-mini\"", "[mcp_servers.other]\ncommand = \"other-mcp\"\nargs = [\"--x\"]", "[mcp_servers]", "[tui]\n# why\nnotifications = true"}
	rng.Shuffle(len(tables), func(i, j int) { tables[i], tables[j] = tables[j], tables[i] })
	seenServers := false
	for _, tb := range tables[:rng.IntN(len(tables)+1)] {
		if strings.HasPrefix(tb, "[mcp_servers") {
			if seenServers {
				continue // [mcp_servers] after [mcp_servers.other] would define it twice in some readers
			}
			seenServers = true
		}
		lines = append(lines, strings.Repeat("\n", rng.IntN(2))+tb)
	}
	s := strings.Join(lines, "\n")
	if rng.IntN(3) > 0 {
		s += "\n"
	}
	return []byte(s)
}

package configfile

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestPropertySetDeleteIsIdentity: taking out an entry just put in gives
// back the document byte for byte, whatever its layout: comments,
// trailing commas (the user's own stay), tabs, one line. The containers
// asktui's entries go in are absent or hold others' entries (an empty
// one that asktui fills cannot be told, afterwards, from one it made;
// asktui setup --undo restores its backup then).
func TestPropertySetDeleteIsIdentity(t *testing.T) {
	for seed := range uint64(500) {
		rng := rand.New(rand.NewPCG(seed, seed)) //nolint:gosec // a seeded source, so that a failing case can be replayed
		src := randomDoc(rng)
		d, err := ParseJSON("f", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		if _, err := d.Set(map[string]any{"command": "/opt/asktui", "args": []any{"mcp"}}, "mcpServers", "asktui"); err != nil {
			t.Fatalf("seed %d: Set: %v", seed, err)
		}
		ours := func(h map[string]any) bool { return h["command"] == "/opt/asktui" }
		group := map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": "/opt/asktui"}}}
		if _, err := d.SetHooks(map[string][]any{"PermissionRequest": {group}}, ours, "hooks"); err != nil {
			t.Fatalf("seed %d: SetHooks: %v", seed, err)
		}
		mid := string(d.Bytes())
		if _, err := d.DeleteHooks(ours, "hooks"); err != nil {
			t.Fatalf("seed %d: DeleteHooks: %v", seed, err)
		}
		if _, err := d.Delete("mcpServers", "asktui"); err != nil {
			t.Fatalf("seed %d: Delete: %v", seed, err)
		}
		if got := string(d.Bytes()); got != src {
			t.Fatalf("seed %d: set then delete gave\n%s\nwant\n%s\n(with the entries:\n%s)", seed, got, src, mid)
		}
	}
}

func randomDoc(rng *rand.Rand) string {
	indent := []string{"  ", "    ", "\t", ""}[rng.IntN(4)]
	jsonc := rng.IntN(2) == 0
	var b strings.Builder
	var write func(v any, depth int)
	nl := func(d int) {
		if indent != "" {
			b.WriteString("\n" + strings.Repeat(indent, d))
		}
	}
	comma := func(last bool) {
		if !last || jsonc && rng.IntN(2) == 0 {
			b.WriteString(",")
		}
		if jsonc && indent != "" && rng.IntN(4) == 0 {
			b.WriteString(" // why")
		}
	}
	write = func(v any, depth int) {
		switch v := v.(type) {
		case [][2]any:
			b.WriteString("{")
			for i, m := range v {
				nl(depth + 1)
				if jsonc && rng.IntN(4) == 0 {
					b.WriteString("/* c */ ")
				}
				fmt.Fprintf(&b, "%q: ", m[0])
				write(m[1], depth+1)
				comma(i == len(v)-1)
			}
			if len(v) > 0 {
				nl(depth)
			}
			b.WriteString("}")
		case []any:
			b.WriteString("[")
			for i, e := range v {
				nl(depth + 1)
				write(e, depth+1)
				comma(i == len(v)-1)
			}
			if len(v) > 0 {
				nl(depth)
			}
			b.WriteString("]")
		default:
			fmt.Fprintf(&b, "%q", v)
		}
	}
	var members [][2]any
	for i := range rng.IntN(4) {
		members = append(members, [2]any{fmt.Sprintf("k%d", i), []any{"a", "b"}[:rng.IntN(3)]})
	}
	if rng.IntN(2) == 0 {
		members = append(members, [2]any{"mcpServers", [][2]any{{"other", [][2]any{{"command", "x"}}}}})
	}
	if rng.IntN(2) == 0 {
		group := [][2]any{{"matcher", "Bash"}, {"hooks", []any{[][2]any{{"command", "lint"}}}}}
		members = append(members, [2]any{"hooks", [][2]any{{[]string{"PermissionRequest", "Stop"}[rng.IntN(2)], []any{group}}}})
	}
	rng.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
	write(members, 0)
	if rng.IntN(2) == 0 {
		b.WriteString("\n")
	}
	return b.String()
}

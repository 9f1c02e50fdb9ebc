package rules

import (
	"flag"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
)

var update = flag.Bool("update", false, "rewrite the generated table of docs/rules.md")

const (
	kindsBegin = "<!-- tool-kinds:begin (generated from interaction.ToolKinds; go test ./internal/rules -run TestKindTable -update) -->\n"
	kindsEnd   = "<!-- tool-kinds:end -->"
)

// kindTable is docs/rules.md's table of how each client's tools map onto
// the rules' tool names.
func kindTable() string {
	kinds := []interaction.PermissionKind{interaction.KindExecute, interaction.KindEdit, interaction.KindRead, interaction.KindFetch, interaction.KindMCP, interaction.KindOther}
	canonical := map[interaction.PermissionKind]string{
		interaction.KindExecute: "Bash", interaction.KindEdit: "Edit", interaction.KindRead: "Read", interaction.KindFetch: "WebFetch",
	}
	var b strings.Builder
	b.WriteString("| kind | rule | ")
	cts := interaction.ToolKinds()
	names := map[string]string{interaction.ClientClaude: "Claude Code", interaction.ClientCodex: "Codex", interaction.ClientGemini: "Gemini CLI",
		interaction.ClientCopilot: "Copilot CLI", interaction.ClientQwen: "Qwen Code", interaction.ClientACP: "ACP (tool-call kind)"}
	for _, ct := range cts {
		b.WriteString(names[ct.Client] + " | ")
	}
	trimRow(&b)
	b.WriteString("|---|---|" + strings.Repeat("---|", len(cts)) + "\n")
	code := func(list []string) string {
		if len(list) == 0 {
			return "—"
		}
		out := make([]string, len(list))
		for i, s := range list {
			out[i] = "`" + s + "`"
		}
		return strings.Join(out, ", ")
	}
	for _, k := range kinds {
		var rule string
		switch k {
		case interaction.KindMCP:
			rule = "`mcp__SERVER`, `mcp__SERVER__*`, `mcp__SERVER__TOOL`"
		case interaction.KindOther:
			rule = "the tool's name, as the client calls it"
		default:
			var aliases []string
			for name, ak := range toolAliases {
				if ak == k && name != canonical[k] {
					aliases = append(aliases, name)
				}
			}
			slices.Sort(aliases)
			rule = "`" + canonical[k] + "(…)`"
			if len(aliases) > 0 {
				rule += " (also " + code(aliases) + ")"
			}
		}
		b.WriteString("| " + string(k) + " | " + rule + " | ")
		for _, ct := range cts {
			switch k {
			case interaction.KindMCP:
				b.WriteString(orDash(ct.MCP) + " | ")
			case interaction.KindOther:
				b.WriteString("every other tool | ")
			default:
				b.WriteString(code(ct.Tools[k]) + " | ")
			}
		}
		trimRow(&b)
	}
	return b.String()
}

// trimRow ends the row being written without a trailing space.
func trimRow(b *strings.Builder) {
	s := strings.TrimSuffix(b.String(), " ")
	b.Reset()
	b.WriteString(s + "\n")
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return "`" + s + "`"
}

// TestKindTable fails when docs/rules.md's table of tool names differs
// from the code's.
func TestKindTable(t *testing.T) {
	const path = "../../docs/rules.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i := strings.Index(doc, kindsBegin)
	j := strings.Index(doc, kindsEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q … %q", path, kindsBegin, kindsEnd)
	}
	want := kindTable()
	if doc[i+len(kindsBegin):j] == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(doc[:i+len(kindsBegin)]+want+doc[j:]), 0o644); err != nil { //nolint:gosec // a doc of the repository's own, kept at its mode
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the table of tool names is stale; run go test ./internal/rules -run TestKindTable -update\nwant:\n%s", path, want)
}

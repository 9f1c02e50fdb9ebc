package interaction

import (
	"encoding/json"
	"strings"
	"testing"
)

// permissionRequest is a valid permission request, as a hook asks it.
func permissionRequest() Request {
	return Request{
		Questions: []Question{{ID: "permission", Question: "Allow Claude Code to use Bash?",
			Options: []Option{{Label: "Allow once"}, {Label: "Deny"}}}},
		Permission: &Permission{
			Client: ClientClaude, Tool: "Bash", Kind: KindExecute, Command: "go test ./...",
			Cwd: "/home/me/src/app", Session: "claude-code:s1",
			Question: "permission", Allow: "Allow once", Deny: "Deny",
		},
	}
}

func TestPermissionValidate(t *testing.T) {
	if err := permissionRequest().Validate(); err != nil {
		t.Fatalf("valid permission request: %v", err)
	}
	cases := []struct {
		name string
		edit func(r *Request)
		want string
	}{
		{"no client", func(r *Request) { r.Permission.Client = " " }, `has no "client"`},
		{"unknown kind", func(r *Request) { r.Permission.Kind = "delete" }, `"kind" is "delete"`},
		{"relative cwd", func(r *Request) { r.Permission.Cwd = "src/app" }, `must be an absolute directory`},
		{"empty cwd", func(r *Request) { r.Permission.Cwd = "" }, `must be an absolute directory`},
		{"long command", func(r *Request) { r.Permission.Command = strings.Repeat("x", MaxCommandLen+1) }, `"command" is 65537 bytes`},
		{"NUL in command", func(r *Request) { r.Permission.Command = "go test\x00rm" }, `"command" holds a NUL byte`},
		{"bad UTF-8", func(r *Request) { r.Permission.Session = "\xff" }, `"session" is not valid UTF-8`},
		{"too many paths", func(r *Request) { r.Permission.Paths = make([]string, MaxPaths+1) }, `names 257 paths`},
		{"empty path", func(r *Request) { r.Permission.Paths = []string{"a", ""} }, `path 2 is empty`},
		{"long path", func(r *Request) { r.Permission.Paths = []string{strings.Repeat("a", MaxPathLen+1)} }, `path 1 is 4097 bytes`},
		{"two questions", func(r *Request) {
			r.Questions = append(r.Questions, Question{ID: "q2", Question: "And?"})
		}, `exactly one question, not 2`},
		{"other question", func(r *Request) { r.Permission.Question = "q9" }, `"question" is "q9"`},
		{"no labels", func(r *Request) { r.Permission.Allow, r.Permission.Deny = "", "" }, `neither an "allow" nor a "deny"`},
		{"same labels", func(r *Request) { r.Permission.Deny = "Allow once" }, `are the same option`},
		{"allow not an option", func(r *Request) { r.Permission.Allow = "Always" }, `"allow" option "Always" is not an option`},
		{"deny not an option", func(r *Request) { r.Permission.Deny = "No" }, `"deny" option "No" is not an option`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := permissionRequest()
			p := *r.Permission
			r.Permission = &p
			c.edit(&r)
			err := r.Validate()
			if CodeOf(err) != CodeInvalidRequest || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Validate = %v, want INVALID_REQUEST with %q", err, c.want)
			}
		})
	}
}

// TestPermissionIsNotJSON: a request's JSON neither carries nor takes a
// permission, so a request that came as JSON (an MCP tool call, a file, a
// socket line's "request") never has one.
func TestPermissionIsNotJSON(t *testing.T) {
	b, err := json.Marshal(permissionRequest())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "permission\":{") || strings.Contains(string(b), "go test") {
		t.Errorf("the request's JSON carries its permission: %s", b)
	}
	in := `{"questions":[{"id":"permission","question":"Allow?","options":[{"label":"Allow once"},{"label":"Deny"}]}],` +
		`"permission":{"client":"claude-code","kind":"execute","command":"rm -rf ~","cwd":"/","question":"permission","allow":"Allow once"},` +
		`"Permission":{"client":"claude-code"}}`
	var r Request
	if err := json.Unmarshal([]byte(in), &r); err != nil {
		t.Fatal(err)
	}
	if r.Permission != nil {
		t.Errorf("json.Unmarshal took a permission: %+v", r.Permission)
	}
	r, err = DecodeRequest(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if r.Permission != nil {
		t.Errorf("DecodeRequest took a permission: %+v", r.Permission)
	}
}

func TestDecodePermission(t *testing.T) {
	p, err := DecodePermission([]byte(`{"client":"codex","tool":"Bash","kind":"execute","command":"ls","cwd":"/w","question":"permission","allow":"Allow once"}`))
	if err != nil || p.Client != "codex" || p.Command != "ls" || p.Allow != "Allow once" {
		t.Fatalf("DecodePermission = %+v, %v", p, err)
	}
	for _, bad := range []string{
		`{"client":"codex","extra":1}`,
		`{"client":"codex"} {}`,
		`[]`,
		`{"paths":"a"}`,
	} {
		if _, err := DecodePermission([]byte(bad)); CodeOf(err) != CodeInvalidRequest {
			t.Errorf("DecodePermission(%s) = %v, want INVALID_REQUEST", bad, err)
		}
	}
}

func TestToolKind(t *testing.T) {
	cases := []struct {
		client, tool string
		want         PermissionKind
	}{
		{ClientClaude, "Bash", KindExecute},
		{ClientClaude, "PowerShell", KindOther},
		{ClientClaude, "MultiEdit", KindEdit},
		{ClientClaude, "Grep", KindRead},
		{ClientClaude, "WebFetch", KindFetch},
		{ClientClaude, "WebSearch", KindOther},
		{ClientClaude, "mcp__github__create_issue", KindMCP},
		{ClientCodex, "Bash", KindExecute},
		{ClientCodex, "apply_patch", KindEdit},
		{ClientCodex, "mcp__fs__write", KindMCP},
		{ClientGemini, "run_shell_command", KindExecute},
		{ClientGemini, "replace", KindEdit},
		{ClientGemini, "web_fetch", KindFetch},
		{ClientGemini, "mcp_github_list", KindMCP},
		{ClientGemini, "Bash", KindOther},
		{ClientACP, "execute", KindExecute},
		{ClientACP, "search", KindRead},
		{ClientACP, "delete", KindOther},
		{ClientACP, "move", KindOther},
		{"someone", "Bash", KindOther},
	}
	for _, c := range cases {
		if got := ToolKind(c.client, c.tool); got != c.want {
			t.Errorf("ToolKind(%q, %q) = %q, want %q", c.client, c.tool, got, c.want)
		}
	}
}

// TestPermissionSummary: each kind of call is named by what it works on,
// on one line, cut at the limit, inert.
func TestPermissionSummary(t *testing.T) {
	long := strings.Repeat("x", 30)
	for _, c := range []struct {
		name  string
		p     *Permission
		limit int
		want  string
	}{
		{"nil", nil, 0, ""},
		{"command", &Permission{Kind: KindExecute, Command: "go test ./..."}, 0, "go test ./..."},
		{"first line", &Permission{Kind: KindExecute, Command: "  cd /tmp\n  rm -rf x\n"}, 0, "cd /tmp …"},
		{"trailing line break", &Permission{Kind: KindExecute, Command: "ls\n\n"}, 0, "ls"},
		{"cut at the limit", &Permission{Kind: KindExecute, Command: long}, 10, "xxxxxxxxxx…"},
		{"exactly the limit", &Permission{Kind: KindExecute, Command: long}, 30, long},
		{"cut and more lines", &Permission{Kind: KindExecute, Command: long + "\necho"}, 10, "xxxxxxxxxx…"},
		{"escape", &Permission{Kind: KindExecute, Command: "echo \x1b]0;x\x07 \u202e"}, 0, "echo �]0;x� �"},
		{"one file", &Permission{Kind: KindEdit, Paths: []string{"main.go"}}, 0, "main.go"},
		{"files", &Permission{Kind: KindRead, Paths: []string{"a", "b", "c", "d", "e"}}, 0, "a, b, c and 2 more"},
		{"no files", &Permission{Kind: KindEdit}, 0, ""},
		{"url", &Permission{Kind: KindFetch, URL: "https://example.com/x"}, 0, "https://example.com/x"},
		{"mcp", &Permission{Kind: KindMCP, MCPServer: "github", MCPTool: "create_issue"}, 0, "create_issue (MCP server github)"},
		{"other", &Permission{Kind: KindOther, Tool: "Task"}, 0, ""},
	} {
		if got := c.p.Summary(c.limit); got != c.want {
			t.Errorf("%s: Summary = %q, want %q", c.name, got, c.want)
		}
	}
}

package tui

import (
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/markdown"
)

// bashPermission is Claude Code asking, through its hook, to run cmd in
// ~/proj: the request the hook sends, its Permission included.
func bashPermission(cmd string) interaction.Request {
	return interaction.Request{
		Agent: &interaction.Agent{ID: "claude-code:abc123", Name: "Claude Code · proj"},
		Questions: []interaction.Question{{
			ID: "permission", Header: "Bash", Question: "Allow Claude Code to use `Bash`?",
			Detail:  markdown.Fence("sh", cmd),
			Options: []interaction.Option{{Label: "Allow once", Description: "This call only"}, {Label: "Deny"}},
		}},
		Permission: &interaction.Permission{
			Client: interaction.ClientClaude, Tool: "Bash", Kind: interaction.KindExecute, Command: cmd,
			Cwd: "/home/u/proj", Session: "claude-code:abc123", Question: "permission", Allow: "Allow once", Deny: "Deny",
		},
	}
}

// The detail as sent (ctrl+r) wraps the same way: at spaces only.
func TestRawDetailWrapsAtSpaces(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 60, 20)
		ask(t, m, bashPermission("./bin/server --config config/production.yaml --listen-address 0.0.0.0:8080 --tls-cert=/etc/ssl/private/production-cluster-certificate-bundle.pem"))
		glance(m)
		press(m, "ctrl+r")
		var lines []string
		for _, l := range strings.Split(screen(m), "\n") {
			lines = append(lines, strings.TrimSpace(l))
		}
		s := strings.Join(lines, "\n")
		mustContain(t, s, "```sh\n./bin/server --config config/production.yaml\n--listen-address 0.0.0.0:8080\n",
			"--tls-cert=/etc/ssl/private/production-cluster-certificat↩\ne-bundle.pem\n```")
	})
}

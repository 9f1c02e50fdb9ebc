package socket

import (
	"context"
	"reflect"
	"testing"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/interactiontest"
)

// hookRequest is a permission request as asktui's hooks send it.
func hookRequest() interaction.Request {
	return interaction.Request{
		Agent: &interaction.Agent{ID: "codex:s1", Name: "Codex · app"},
		Questions: []interaction.Question{{ID: "permission", Question: "Allow Codex to use Bash?",
			Options: []interaction.Option{{Label: "Allow once"}, {Label: "Deny"}}}},
		Permission: &interaction.Permission{Client: interaction.ClientCodex, Tool: "Bash", Kind: interaction.KindExecute,
			Command: "go test ./...", Cwd: "/home/me/src/app", Session: "codex:s1",
			Question: "permission", Allow: "Allow once", Deny: "Deny"},
	}
}

// TestPermissionTravels: the client sends a request's permission beside
// it, and the server gives it back to the request.
func TestPermissionTravels(t *testing.T) {
	f := interactiontest.NewProvider()
	srv := startServer(t, f, Options{})
	c, err := Dial(context.Background(), srv.path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	req := hookRequest()
	done := make(chan error, 1)
	go func() {
		_, err := c.Ask(context.Background(), req)
		done <- err
	}()
	got := f.Next(t)
	if !reflect.DeepEqual(got.Req.Permission, req.Permission) {
		t.Errorf("permission arrived as %+v, want %+v", got.Req.Permission, req.Permission)
	}
	got.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "permission", Selected: []string{"Allow once"}}}})
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestPermissionLines: a permission inside the request is ignored, and
// one beside it is decoded strictly and checked against the request.
func TestPermissionLines(t *testing.T) {
	f := interactiontest.NewProvider()
	srv := startServer(t, f, Options{})
	c := dialRaw(t, srv.path)
	const q = `{"questions":[{"id":"permission","question":"Allow?","options":[{"label":"Allow once"},{"label":"Deny"}]}]}`
	const perm = `{"client":"codex","kind":"execute","command":"ls","cwd":"/w","question":"permission","allow":"Allow once"}`

	c.send(`{"id":1,"request":` + q + `,"permission":` + perm + `}`)
	got := f.Next(t)
	if p := got.Req.Permission; p == nil || p.Command != "ls" || p.Allow != "Allow once" {
		t.Errorf("permission beside the request arrived as %+v", p)
	}
	got.Fail(interaction.ErrDeclined)
	wantError(t, c.recv(), "1", interaction.CodeDeclined)

	c.send(`{"id":2,"request":{"questions":[{"id":"permission","question":"Allow?","options":[{"label":"Allow once"}]}],"permission":` + perm + `}}`)
	got = f.Next(t)
	if got.Req.Permission != nil {
		t.Errorf("a permission inside the request arrived: %+v", got.Req.Permission)
	}
	got.Fail(interaction.ErrDeclined)
	wantError(t, c.recv(), "2", interaction.CodeDeclined)

	for _, tt := range []struct{ name, line, part string }{
		{"unknown field", `{"id":3,"request":` + q + `,"permission":{"client":"codex","evil":true}}`, `unknown field "evil"`},
		{"not an object", `{"id":3,"request":` + q + `,"permission":"yes"}`, `not a permission object`},
		{"label not an option", `{"id":3,"request":` + q + `,"permission":{"client":"codex","kind":"execute","cwd":"/w","question":"permission","allow":"Always"}}`, `"allow" option "Always"`},
		{"relative cwd", `{"id":3,"request":` + q + `,"permission":{"client":"codex","kind":"execute","cwd":"w","question":"permission","allow":"Allow once"}}`, `absolute directory`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c.t = t
			c.send(tt.line)
			wantError(t, c.recv(), "3", interaction.CodeInvalidRequest, tt.part)
		})
	}
}

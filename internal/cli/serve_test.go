package cli

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// hostile is a token and an address that run commands when pasted into a
// shell unquoted.
const (
	hostileToken = `0123456789abcdef0123456789abcdef'; touch pwned; echo '`
	hostileURL   = `http://127.0.0.1:7341/mcp$(touch pwned)`
)

func TestPrintConfigClaudeIsShellQuoted(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs a POSIX shell")
	}
	var out, hint bytes.Buffer
	if err := printConfig(&out, &hint, "claude", hostileURL, hostileToken); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "--scope user") || !strings.Contains(out.String(), "user scope") {
		t.Errorf("the command does not say which scope it adds to:\n%s", out.String())
	}
	// Run it as the README says (| sh), with claude a function that
	// prints its arguments one per line.
	dir := t.TempDir()
	script := "claude() { for a in \"$@\"; do printf '%s\\n' \"$a\"; done; }\n" + out.String()
	cmd := exec.CommandContext(context.Background(), "sh")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(script)
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("sh: %v\n%s", err, script)
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Fatal("the printed command ran the token as a command")
	}
	want := []string{"mcp", "add", "--scope", "user", "--transport", "http", "asktui", hostileURL,
		"--header", "Authorization: Bearer " + hostileToken}
	if args := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n"); !slices.Equal(args, want) {
		t.Errorf("claude got\n%q\nwant\n%q", args, want)
	}
}

func TestPrintConfig(t *testing.T) {
	const url = "http://127.0.0.1:7341/mcp"
	const token = "0123456789abcdef0123456789abcdef"
	tests := []struct {
		client, token string
		want, not     []string
		hint          []string // on standard error
	}{
		{client: "codex", token: token, want: []string{
			"[mcp_servers.asktui]", `url = "` + url + `"`, `bearer_token_env_var = "ASKTUI_TOKEN"`,
			"export ASKTUI_TOKEN='" + token + "'", `http_headers = { Authorization = "Bearer ` + token + `" }`,
			"tool_timeout_sec = 3600",
		}},
		{client: "codex", token: "", want: []string{`url = "` + url + `"`}, not: []string{"ASKTUI_TOKEN", "http_headers", "Bearer"}},
		{client: "claude", token: "", want: []string{"claude mcp add"}, not: []string{"ASKTUI_TOKEN", "--header"}},
		{
			client: "json", token: token, want: []string{`"Authorization": "Bearer ${ASKTUI_TOKEN}"`},
			not: []string{token}, hint: []string{"export ASKTUI_TOKEN='" + token + "'"},
		},
		{client: "json", token: "", not: []string{"ASKTUI_TOKEN", "Authorization"}},
		{client: "gemini", token: "", want: []string{`"httpUrl": "` + url + `"`, `"trust": true`}, not: []string{"ASKTUI_TOKEN", "Authorization"},
			hint: []string{"GEMINI_CLI_TRUST_WORKSPACE=true"}},
	}
	for _, tt := range tests {
		t.Run(tt.client+"/token="+tt.token, func(t *testing.T) {
			var out, hint bytes.Buffer
			if err := printConfig(&out, &hint, tt.client, url, tt.token); err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("missing %q in\n%s", w, out.String())
				}
			}
			for _, n := range tt.not {
				if strings.Contains(out.String(), n) {
					t.Errorf("%q should not be in\n%s", n, out.String())
				}
			}
			if tt.token == "" && hint.Len() > 0 && tt.hint == nil {
				t.Errorf("--no-auth, yet a hint: %q", hint.String())
			}
			for _, w := range tt.hint {
				if !strings.Contains(hint.String(), w) {
					t.Errorf("missing %q on standard error: %q", w, hint.String())
				}
			}
			if tt.client == "json" || tt.client == "gemini" {
				var v any
				if err := json.Unmarshal(out.Bytes(), &v); err != nil {
					t.Errorf("not JSON: %v", err)
				}
			}
		})
	}
}

// The stdio bridge's setup, as each client reads it: Codex passes the
// variables the socket's path depends on, Gemini trusts the server (or
// never offers its tool under -p), and the command runs as printed.
func TestPrintStdioConfig(t *testing.T) {
	const exe = "/opt/ask tui/asktui"
	args := []string{"mcp", "--socket", "/run/a'b.sock"}
	var out, hint bytes.Buffer
	if err := printStdioConfig(&out, &hint, "codex", exe, args); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"[mcp_servers.asktui]", `command = "/opt/ask tui/asktui"`, `args = ["mcp", "--socket", "/run/a'b.sock"]`,
		`env_vars = ["XDG_RUNTIME_DIR", "TMPDIR"]`, "tool_timeout_sec = 3600"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("codex: missing %q in\n%s", w, out.String())
		}
	}
	for _, client := range []string{"gemini", "json"} {
		out.Reset()
		hint.Reset()
		if err := printStdioConfig(&out, &hint, client, exe, args); err != nil {
			t.Fatal(err)
		}
		var cfg struct {
			MCPServers map[string]struct {
				Command string
				Args    []string
				Trust   bool
				Type    string
			} `json:"mcpServers"`
		}
		if err := json.Unmarshal(out.Bytes(), &cfg); err != nil {
			t.Fatalf("%s: not JSON: %v\n%s", client, err, out.String())
		}
		s := cfg.MCPServers["asktui"]
		if s.Command != exe || !slices.Equal(s.Args, args) || s.Trust != (client == "gemini") || (client == "json") != (s.Type == "stdio") {
			t.Errorf("%s: %+v", client, s)
		}
		if (client == "gemini") != strings.Contains(hint.String(), "trusted folder") {
			t.Errorf("%s: hint %q", client, hint.String())
		}
	}
	if runtime.GOOS == "windows" {
		return
	}
	out.Reset()
	if err := printStdioConfig(&out, &hint, "claude", exe, args); err != nil {
		t.Fatal(err)
	}
	script := "claude() { for a in \"$@\"; do printf '%s\\n' \"$a\"; done; }\n" + out.String()
	got, err := exec.CommandContext(context.Background(), "sh", "-c", script).Output() //nolint:gosec // the test runs a command of its own choosing
	if err != nil {
		t.Fatalf("sh: %v\n%s", err, script)
	}
	want := append([]string{"mcp", "add", "--scope", "user", "asktui", "--", exe}, args...)
	if a := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n"); !slices.Equal(a, want) {
		t.Errorf("claude got\n%q\nwant\n%q", a, want)
	}
	if err := printStdioConfig(&out, &hint, "cursor", exe, args); err == nil {
		t.Error("an unknown client was accepted")
	}
}

func TestTomlString(t *testing.T) {
	if got, want := tomlString("a\"b\\c\n\x01é"), `"a\"b\\c\u000A\u0001é"`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestCheckListen(t *testing.T) {
	cert, key := selfSigned(t)
	tests := []struct {
		name     string
		o        serveOptions
		err      string // in the error; "" for none
		url      string
		hosts    []string
		insecure bool
	}{
		{name: "loopback", o: serveOptions{listen: "127.0.0.1:7341"}, url: "http://127.0.0.1:7341/mcp",
			hosts: []string{"127.0.0.1", "localhost", "127.0.0.1", "::1"}},
		{name: "no port", o: serveOptions{listen: "127.0.0.1"}, err: "use host:port"},
		{name: "network without TLS", o: serveOptions{listen: "192.0.2.1:7341"}, err: "--tls-cert"},
		{name: "every address without TLS", o: serveOptions{listen: ":7341"}, err: "--insecure-listen"},
		{name: "network, insecure", o: serveOptions{listen: "192.0.2.1:7341", insecureListen: true},
			url: "http://192.0.2.1:7341/mcp", hosts: []string{"192.0.2.1"}, insecure: true},
		{name: "every address needs a name", o: serveOptions{listen: "0.0.0.0:7341", insecureListen: true}, err: "--server-name"},
		{name: "every address, named", o: serveOptions{listen: "0.0.0.0:7341", insecureListen: true, serverNames: []string{"box.example"}},
			url: "http://box.example:7341/mcp", hosts: []string{"box.example"}, insecure: true},
		{name: "TLS", o: serveOptions{listen: "0.0.0.0:7341", tlsCert: cert, tlsKey: key, serverNames: []string{"box.example"}},
			url: "https://box.example:7341/mcp", hosts: []string{"box.example"}},
		{name: "cert without key", o: serveOptions{listen: "0.0.0.0:7341", tlsCert: cert}, err: "go together"},
		{name: "bad cert", o: serveOptions{listen: "0.0.0.0:7341", tlsCert: key, tlsKey: key}, err: "cannot use --tls-cert"},
		{name: "bad name", o: serveOptions{listen: "127.0.0.1:7341", serverNames: []string{"box:80"}}, err: "invalid --server-name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := checkListen(tt.o)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := p.url(tt.o.listen); got != tt.url {
				t.Errorf("url = %s, want %s", got, tt.url)
			}
			if !slices.Equal(p.hosts, tt.hosts) || p.insecure != tt.insecure {
				t.Errorf("hosts %q insecure %v, want %q %v", p.hosts, p.insecure, tt.hosts, tt.insecure)
			}
		})
	}
}

// selfSigned writes a certificate and its key for box.example.
func selfSigned(t *testing.T) (certFile, keyFile string) {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "box.example"},
		DNSNames: []string{"box.example"}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}

func TestWeakTokensRefused(t *testing.T) {
	if !checkModes {
		t.Skip("file modes do not apply")
	}
	good := strings.Repeat("a", minTokenLen)
	write := func(t *testing.T, dir, token string, mode os.FileMode) string {
		t.Helper()
		f := filepath.Join(dir, "token")
		if err := os.WriteFile(f, []byte(token+"\n"), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(f, mode); err != nil { // past the umask
			t.Fatal(err)
		}
		return f
	}
	tests := []struct {
		name  string
		setup func(t *testing.T) (file string, environ []string)
		want  string
	}{
		{"short env token", func(*testing.T) (string, []string) {
			return "", []string{"ASKTUI_TOKEN=short"}
		}, "at least 32"},
		{"readable by others", func(t *testing.T) (string, []string) {
			return write(t, t.TempDir(), good, 0o644), nil
		}, "chmod 600"},
		{"short token", func(t *testing.T) (string, []string) {
			return write(t, t.TempDir(), "short", 0o600), nil
		}, "at least 32"},
		{"world-writable directory", func(t *testing.T) (string, []string) {
			dir := t.TempDir()
			f := write(t, dir, good, 0o600)
			if err := os.Chmod(dir, 0o777); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up
				t.Fatal(err)
			}
			return f, nil
		}, "writable by every user"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file, environ := tt.setup(t)
			_, err := loadToken(file, env{environ: environ, stderr: &bytes.Buffer{}})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one saying %q", err, tt.want)
			}
		})
	}
	t.Run("good file", func(t *testing.T) {
		f := write(t, t.TempDir(), good, 0o600)
		if got, err := loadToken(f, env{stderr: &bytes.Buffer{}}); err != nil || got != good {
			t.Fatalf("%q, %v", got, err)
		}
	})
}

// TestOwnWeakTokenRegenerated: the default token file is asktui's own, so
// a weak one is replaced, and serve says so.
func TestOwnWeakTokenRegenerated(t *testing.T) {
	if !checkModes {
		t.Skip("file modes do not apply")
	}
	cfg := t.TempDir()
	e := env{environ: []string{"XDG_CONFIG_HOME=" + cfg}}
	first, err := loadToken("", env{environ: e.environ, stderr: &bytes.Buffer{}})
	if err != nil || len(first) != 64 {
		t.Fatalf("generated %q, %v", first, err)
	}
	file := filepath.Join(cfg, "asktui", "token")
	for _, weaken := range []func(){
		func() { _ = os.Chmod(file, 0o644) }, //nolint:gosec // a test's own file; its mode is part of the set-up
		func() { _ = os.WriteFile(file, []byte("short\n"), 0o600) },
	} {
		weaken()
		var stderr bytes.Buffer
		e.stderr = &stderr
		got, err := loadToken("", e)
		if err != nil || len(got) != 64 || got == first {
			t.Fatalf("token %q, %v; want a new one", got, err)
		}
		if info, err := os.Stat(file); err != nil || info.Mode().Perm() != 0o600 {
			t.Fatalf("mode %v, %v", info.Mode(), err)
		}
		if !strings.Contains(stderr.String(), "new token") {
			t.Errorf("stderr %q does not say the token was replaced", stderr.String())
		}
		first = got
	}
}

// TestServeFlagsBeforeTheTerminal runs serve's flag checks and
// --print-config through the command line: refusals come before the
// terminal is touched.
func TestServeFlagsBeforeTheTerminal(t *testing.T) {
	good := "ASKTUI_TOKEN=" + strings.Repeat("k", minTokenLen)
	tests := []struct {
		name    string
		environ []string
		args    []string
		code    int
		stdout  []string // in standard output
		stderr  []string // in standard error
	}{
		{"plain HTTP on the network", []string{good}, []string{"serve", "--listen", "0.0.0.0:7341"},
			exitUsage, nil, []string{"--tls-cert", "--insecure-listen"}},
		{"short token", []string{"ASKTUI_TOKEN=short"}, []string{"serve", "--print-config", "claude"},
			exitUsage, nil, []string{"at least 32"}},
		{"negative session timeout", []string{good}, []string{"serve", "--session-timeout", "-1s"},
			exitUsage, nil, []string{"--session-timeout"}},
		{"insecure, named, no auth", nil, []string{"serve", "--listen", "0.0.0.0:7341", "--insecure-listen",
			"--server-name", "box.example", "--no-auth", "--print-config", "codex"},
			exitAnswered, []string{`url = "http://box.example:7341/mcp"`}, nil},
		{"json hint", []string{good}, []string{"serve", "--print-config", "json"},
			exitAnswered, []string{"${ASKTUI_TOKEN}"}, []string{"export ASKTUI_TOKEN="}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(t.Context(), tt.args, env{
				stdout: &stdout, stderr: &stderr,
				environ: append([]string{"XDG_CONFIG_HOME=" + t.TempDir()}, tt.environ...),
				openTTY: mustNotOpenTTY(t),
			})
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tt.code, stderr.String())
			}
			for _, w := range tt.stdout {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("stdout %q lacks %q", stdout.String(), w)
				}
			}
			for _, w := range tt.stderr {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr %q lacks %q", stderr.String(), w)
				}
			}
			if strings.Contains(stdout.String()+stderr.String(), "ASKTUI_TOKEN=") && slices.Contains(tt.args, "--no-auth") {
				t.Error("--no-auth, yet an ASKTUI_TOKEN hint")
			}
		})
	}
}

func TestProgressIntervalZeroIsOff(t *testing.T) {
	for _, tt := range []struct {
		flag    time.Duration
		want    time.Duration
		wantErr bool
	}{
		{flag: 0, want: -1}, // mcp.Options: negative sends none, zero the default
		{flag: 15 * time.Second, want: 15 * time.Second},
		{flag: -time.Second, wantErr: true},
	} {
		got, err := progressInterval(tt.flag)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("progressInterval(%v) = %v, %v; want %v (error %v)", tt.flag, got, err, tt.want, tt.wantErr)
		}
	}
}

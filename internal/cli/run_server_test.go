package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/asktui/asktui/agent/mcp"
	"github.com/asktui/asktui/interaction/interactiontest"
)

// TestRunServerHardened drives the MCP server asktui run gives its
// agents with what serve's survives: headers sent slowly, a body that
// never ends, a keep-alive connection left idle, and a flood of
// connections without the token. Each ends in the server closing the
// connection, and a client with the token is still served.
func TestRunServerHardened(t *testing.T) {
	const token = "0123456789abcdef0123456789abcdef"
	const short = 100 * time.Millisecond
	srv, hs, err := agentMCP(interactiontest.NewProvider(), mcp.Options{
		Token: token, ReadHeaderTimeout: short, ReadTimeout: short, IdleTimeout: short,
		MaxConns: 4, MaxUnauthConns: 4,
	})
	if err != nil {
		t.Fatal(err)
	}
	l, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(l) }()
	defer func() {
		_ = srv.Close()
		_ = hs.Close()
		if err := <-served; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("serve: %v", err)
		}
	}()
	addr := l.Addr().String()
	dial := func(t *testing.T) net.Conn {
		t.Helper()
		c, err := (&net.Dialer{}).DialContext(context.Background(), "tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		return c
	}
	// closed fails t unless the server closes c. The deadline is a
	// failure deadline, far past the server's own timeouts, and under
	// the 10 s header timeout and the missing read and idle timeouts of
	// a bare http.Server.
	closed := func(t *testing.T, c net.Conn) {
		t.Helper()
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := io.Copy(io.Discard, c); err != nil {
			t.Fatalf("the connection stayed open: %v", err)
		}
	}
	authed := fmt.Sprintf("Host: 127.0.0.1\r\nAuthorization: Bearer %s\r\n", token)

	t.Run("slow headers", func(t *testing.T) {
		c := dial(t)
		fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
		closed(t, c)
	})
	t.Run("body that never ends", func(t *testing.T) {
		c := dial(t)
		fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\n%sContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":", authed)
		closed(t, c)
	})
	t.Run("idle keep-alive", func(t *testing.T) {
		c := dial(t)
		fmt.Fprintf(c, "GET /.well-known/none HTTP/1.1\r\n%s\r\n", authed)
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		closed(t, c)
	})
	t.Run("connection flood", func(t *testing.T) {
		var conns []net.Conn
		for range 12 {
			conns = append(conns, dial(t))
		}
		// The server holds at most 4: the oldest 8 make room.
		for _, c := range conns[:8] {
			closed(t, c)
		}
		c := dial(t)
		fmt.Fprintf(c, "GET /.well-known/oauth-protected-resource HTTP/1.1\r\n%s\r\n", authed)
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("a client with the token after the flood: %v", err)
		}
		_ = resp.Body.Close()
	})
}

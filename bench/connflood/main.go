// Command connflood measures what unauthenticated connections cost
// `asktui serve`: it opens many connections of one kind at once, then
// reports the server's open file descriptors and resident memory, how many
// of the connections are still open, and whether a client with the token
// is still served, at once and again after a wait.
//
//	ASKTUI_TOKEN=… asktui serve --listen 127.0.0.1:7399 --socket off --history off   # in a terminal
//	go run ./bench/connflood -addr 127.0.0.1:7399 -pid $(pgrep -n asktui) -token … -n 5000
//
// Kinds: "401" sends a request with a wrong token and keeps the
// connection; "partial" sends headers and half a body without a token;
// "idle" sends nothing; "names" is no flood of connections but 60
// sessions, one after the other, of clients with 4 MiB names, each
// deleted at once. Linux only (it reads /proc/PID).
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:7341", "the server's address")
	pid := flag.Int("pid", 0, "the server's process id, to read its fds and memory")
	token := flag.String("token", "", "the server's token, for the probe of a real client")
	n := flag.Int("n", 1000, "connections per kind")
	wait := flag.Duration("wait", 15*time.Second, "how long to hold the connections before looking again")
	kinds := flag.String("kinds", "401,partial,idle", "kinds of connection, in order")
	flag.Parse()
	fmt.Printf("server %s, %d connections per kind, looked at again after %v\n", *addr, *n, *wait)
	fmt.Printf("%-8s %-6s %10s %8s %9s %s\n", "kind", "when", "open", "fds", "rss", "a client with the token")
	for _, kind := range strings.Split(*kinds, ",") {
		if kind == "names" {
			sessions(*addr, *token, *pid, *wait)
			continue
		}
		conns := flood(*addr, kind, *n)
		report(kind, "+0s", conns, *pid, *addr, *token)
		time.Sleep(*wait)
		report(kind, "+"+wait.String(), conns, *pid, *addr, *token)
		for _, c := range conns {
			_ = c.Close()
		}
		time.Sleep(2 * time.Second) // let the server see them go
	}
}

// flood opens n connections of kind, in parallel.
func flood(addr, kind string, n int) []net.Conn {
	var mu sync.Mutex
	var conns []net.Conn
	var wg sync.WaitGroup
	sem := make(chan struct{}, 200)
	for range n {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			c, err := (&net.Dialer{Timeout: 5 * time.Second}).DialContext(context.Background(), "tcp", addr)
			if err != nil {
				return
			}
			switch kind {
			case "401":
				_, _ = io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: "+addr+"\r\nAuthorization: Bearer wrong\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
				_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
				if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					_ = resp.Body.Close()
				}
				_ = c.SetReadDeadline(time.Time{})
			case "partial":
				_, _ = io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: "+addr+"\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"jsonrpc\":\"2.0\",")
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		})
	}
	wg.Wait()
	return conns
}

// report prints one line: how many conns the server still holds open.
func report(kind, when string, conns []net.Conn, pid int, addr, token string) {
	open := 0
	var wg sync.WaitGroup
	var mu sync.Mutex
	sem := make(chan struct{}, 200)
	for _, c := range conns {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			// Read what the server sent (a 401, say) until it closes the
			// connection or is quiet for a moment.
			_ = c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
			_, err := io.Copy(io.Discard, c)
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				mu.Lock()
				open++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	fds, rss := procStats(pid)
	fmt.Printf("%-8s %-6s %10s %8s %9s %s\n", kind, when, fmt.Sprintf("%d/%d", open, len(conns)), fds, rss, probe(addr, token))
}

// probe initializes a session as a real client would, and times it.
func probe(addr, token string) string {
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"probe","version":"1"}}}`
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, "http://"+addr+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	start := time.Now()
	resp, err := (&http.Client{Transport: tr, Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		return "FAILED: " + err.Error()
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return fmt.Sprintf("%d in %v", resp.StatusCode, time.Since(start).Round(time.Millisecond))
}

func procStats(pid int) (fds, rss string) {
	if pid == 0 {
		return "?", "?"
	}
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err == nil {
		fds = fmt.Sprint(len(ents))
	}
	status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			rss = strings.Join(strings.Fields(v), " ")
		}
	}
	return fds, rss
}

// sessions opens 60 sessions of clients with 4 MiB names, one at a time,
// and deletes each; then it reports the server's memory, at once and
// after wait.
func sessions(addr, token string, pid int, wait time.Duration) {
	_, before := procStats(pid)
	name := strings.Repeat("n", 4<<20)
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	post := func(id, body string) (*http.Response, error) {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, "http://"+addr+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+token)
		if id != "" {
			req.Header.Set("Mcp-Session-Id", id)
			req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		}
		return client.Do(req)
	}
	failed := 0
	for i := range 60 {
		resp, err := post("", fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"%s%d","version":"1"}}}`, name, i))
		if err != nil {
			failed++
			continue
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		id := resp.Header.Get("Mcp-Session-Id")
		if resp, err = post(id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
		}
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodDelete, "http://"+addr+"/mcp", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Mcp-Session-Id", id)
		if resp, err = client.Do(req); err == nil {
			_ = resp.Body.Close()
		}
	}
	_, after := procStats(pid)
	time.Sleep(wait)
	_, later := procStats(pid)
	fmt.Printf("names: 60 sessions with 4 MiB client names, each deleted (%d failed): rss %s before, %s after, %s %v later\n",
		failed, before, after, later, wait)
}

package cli

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/internal/sshserve"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui"
)

// sshFlags are serve's flags for the inbox over SSH and for serving
// without a local view.
type sshFlags struct {
	addr           string // "" until --ssh is given; "off" for none
	explicit       bool   // --ssh was given
	authorizedKeys string
	maxSessions    int
	headless       bool
}

func addSSHFlags(cmd *cobra.Command, o *sshFlags) {
	f := cmd.Flags()
	f.StringVar(&o.addr, "ssh", "", `serve the inbox over SSH on this address (default `+sshserve.DefaultAddr+
		` when your authorized_keys file exists); a non-loopback address must be named explicitly; "off" serves none`)
	f.Lookup("ssh").NoOptDefVal = sshserve.DefaultAddr
	f.StringVar(&o.authorizedKeys, "authorized-keys", "", "the public keys allowed in over SSH (default: ~/.ssh/authorized_keys)")
	f.IntVar(&o.maxSessions, "ssh-max-sessions", 8, "how many SSH views may be open at once")
	f.BoolVar(&o.headless, "headless", false, "serve MCP, the socket and SSH with no view on this terminal (for a server or a container); ctrl+c or SIGTERM stops")
}

// sshAddrArg lets --ssh take its value as the next word (--ssh ADDR and
// --ssh off, as well as --ssh=ADDR): a flag with an optional value cannot,
// so serve takes one argument, an address or "off", and only right after
// a bare --ssh.
func sshAddrArg(o *sshFlags) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) == 0:
			return nil
		case len(args) == 1 && cmd.Flags().Changed("ssh") && o.addr == sshserve.DefaultAddr:
			if args[0] == "off" {
				return nil
			}
			if _, _, err := net.SplitHostPort(args[0]); err == nil {
				return nil
			}
		}
		return fmt.Errorf("serve takes no arguments, but was given %q (to name the SSH address, write --ssh HOST:PORT; for no SSH, --ssh off)", strings.Join(args, " "))
	}
}

// sshService is the running SSH server, or nothing.
type sshService struct {
	srv    *sshserve.Server
	served chan error
	log    *heldLog
}

// startSSH starts the SSH server of views of in when serve was asked to,
// or by default when the authorized keys file exists. Without --ssh a
// default that cannot be used (no keys, the port taken) is reported on
// stderr and skipped; with it, it is an error.
func startSSH(o sshFlags, e env, in *inbox.Inbox, theme styles.Theme, alerts tui.Alerts, rules tui.Rules) (*sshService, error) {
	addr := o.addr
	switch addr {
	case "off":
		return nil, nil
	case "":
		addr = sshserve.DefaultAddr
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return nil, fmt.Errorf("invalid --ssh %q: use host:port, such as %s", addr, sshserve.DefaultAddr)
	}
	keys := o.authorizedKeys
	if keys == "" {
		home, err := e.home()
		if err != nil {
			if o.explicit {
				return nil, fmt.Errorf("no authorized keys for --ssh: %w; name them with --authorized-keys", err)
			}
			return nil, nil
		}
		keys = filepath.Join(home, ".ssh", "authorized_keys")
		if _, err := os.Stat(keys); errors.Is(err, os.ErrNotExist) && !o.explicit {
			return nil, nil
		}
	}
	dir, err := e.dataDir()
	if err != nil {
		return nil, fmt.Errorf("no place for the SSH host key: %w", err)
	}
	log := &heldLog{w: e.stderr, hold: !o.headless}
	srv, err := sshserve.Listen(sshserve.Config{
		Addr:           addr,
		HostKeyPath:    filepath.Join(dir, "ssh_host_ed25519_key"),
		AuthorizedKeys: keys,
		Inbox:          in,
		Theme:          theme,
		Alerts:         alerts,
		Rules:          rules,
		MaxSessions:    o.maxSessions,
		Log:            log,
	})
	if err != nil {
		if !o.explicit {
			_, _ = fmt.Fprintf(e.stderr, "asktui: not serving over SSH: %v\n", err)
			return nil, nil
		}
		return nil, interaction.WrapError(interaction.CodeInternal, err, "cannot serve over SSH: %v", err)
	}
	if !isLoopback(srv.Addr()) {
		_, _ = fmt.Fprintf(e.stderr, "asktui: serving the inbox over SSH on %s to the keys in %s\nasktui: host key fingerprint %s: check it the first time you connect\n",
			srv.Addr(), keys, srv.Fingerprint())
	}
	s := &sshService{srv: srv, served: make(chan error, 1), log: log}
	go func() { s.served <- srv.Serve() }()
	return s, nil
}

// command is how to connect: ssh -p PORT HOST.
func (s *sshService) command() string {
	host, port, _ := net.SplitHostPort(s.srv.Addr().String())
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		host = "localhost"
	}
	if port == "22" {
		return "ssh " + host
	}
	return "ssh -p " + port + " " + host
}

func isLoopback(a net.Addr) bool {
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// heldLog is the SSH server's log (refused and failed connections). While
// a view owns this terminal, lines are held and written when it closes,
// so they never tear its screen; serving headless, they go out at once.
type heldLog struct {
	mu   sync.Mutex
	w    io.Writer
	hold bool
	held []string
}

// maxHeld bounds the lines held while a view is open.
const maxHeld = 200

func (l *heldLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.hold {
		return l.w.Write(p)
	}
	for _, line := range strings.SplitAfter(string(p), "\n") {
		if line != "" {
			l.held = append(l.held, line)
		}
	}
	if extra := len(l.held) - maxHeld; extra > 0 {
		l.held = l.held[extra:]
	}
	return len(p), nil
}

// release writes what was held and stops holding.
func (l *heldLog) release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.hold = false
	for _, line := range l.held {
		_, _ = io.WriteString(l.w, line)
	}
	l.held = nil
}

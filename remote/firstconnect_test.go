package remote

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/chipchat/chipchat/internal/sshtest"
)

// askingConfig writes a client config for s with identity and an empty
// known_hosts whose StrictHostKeyChecking is strict ("yes") or ssh's
// default ("ask").
func askingConfig(t *testing.T, s *sshtest.Server, name, identity, strict string) string {
	t.Helper()
	known := filepath.Join(s.Dir, name+"_known_hosts")
	if err := os.WriteFile(known, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(s.Dir, name+"_config")
	s.WriteClientConfig(t, path, identity, known)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.ReplaceAll(b, []byte("StrictHostKeyChecking yes"), []byte("StrictHostKeyChecking "+strict))
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// A host key not known yet is a question: Answerable says so, and the
// interactive connection in a terminal shows ssh's prompt; "yes" opens
// the master, which batch mode then uses.
func TestUnknownHostKeyIsAnsweredInATerminal(t *testing.T) {
	s := sshtest.Start(t)
	ctx := context.Background()
	c := dial(t, s, "/", Options{ConfigFile: askingConfig(t, s, "ask", s.ClientKey, "ask")})
	err := c.Connect(ctx)
	if !errors.Is(err, ErrHostKeyUnknown) {
		t.Fatalf("Connect: %v, want ErrHostKeyUnknown", err)
	}
	why, ok := c.Answerable(ctx, err)
	if !ok || !strings.Contains(why, "host key") {
		t.Fatalf("Answerable = %q, %v", why, ok)
	}

	cmd := c.Interactive()
	ptmx, err := pty.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	// ssh's prompt, seen by the reader of the pty.
	asked := make(chan struct{})
	var mu sync.Mutex
	var out bytes.Buffer
	go func() {
		b := make([]byte, 4096)
		seen := false
		for {
			n, err := ptmx.Read(b)
			mu.Lock()
			out.Write(b[:n])
			if !seen && strings.Contains(out.String(), "Are you sure you want to continue connecting") {
				seen = true
				close(asked)
			}
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	select {
	case <-asked:
	case <-time.After(15 * time.Second):
		mu.Lock()
		t.Fatalf("ssh never asked; it said %q", out.String())
	}
	if _, err := ptmx.Write([]byte("yes\r")); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the interactive connection: %v", err)
	}
	if err := c.Connect(ctx); err != nil || !c.Alive(ctx) {
		t.Fatalf("after answering: %v, alive %v", err, c.Alive(ctx))
	}
	if n := s.Logins(); n != 1 {
		t.Fatalf("%d logins, want 1 (the master's)", n)
	}
}

// What a person cannot answer is no question: a strict host key check,
// a refused key, an unknown host, a host key that changed.
func TestUnanswerableFailures(t *testing.T) {
	s := sshtest.Start(t)
	ctx := context.Background()
	strict := dial(t, s, "/", Options{ConfigFile: askingConfig(t, s, "strict", s.ClientKey, "yes")})
	err := strict.Connect(ctx)
	if why, ok := strict.Answerable(ctx, err); !errors.Is(err, ErrHostKeyUnknown) || ok {
		t.Errorf("strict checking: %v, answerable %q %v", err, why, ok)
	}

	other := filepath.Join(s.Dir, "other_key")
	sshtest.Keygen(t, other)
	refusedConfig := filepath.Join(s.Dir, "refused_config")
	s.WriteClientConfig(t, refusedConfig, other, s.KnownHosts)
	refused := dial(t, s, "/", Options{ConfigFile: refusedConfig})
	err = refused.Connect(ctx)
	if why, ok := refused.Answerable(ctx, err); !errors.Is(err, ErrAuthRefused) || ok {
		t.Errorf("refused key: %v, answerable %q %v", err, why, ok)
	}

	c, err := New(Target{Host: "no-such-host.invalid", Path: "/"}, Options{ConfigFile: s.ConfigFile, ControlDir: shortDir(t)})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Connect(ctx)
	if why, ok := c.Answerable(ctx, err); !errors.Is(err, ErrHostUnknown) || ok {
		t.Errorf("unknown host: %v, answerable %q %v", err, why, ok)
	}
	if _, ok := c.Answerable(ctx, errors.New("not ssh's")); ok {
		t.Error("an error not ssh's is answerable")
	}
}

// A refused login whose identity file has a passphrase is a question:
// batch mode could not ask for it.
func TestKeyWithAPassphraseIsAQuestion(t *testing.T) {
	s := sshtest.Start(t)
	key := filepath.Join(s.Dir, "locked_key")
	sshtest.Keygen(t, key)
	if out, err := exec.Command("ssh-keygen", "-q", "-p", "-P", "", "-N", "secret words", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen -p: %v: %s", err, out)
	}
	cfg := filepath.Join(s.Dir, "locked_config")
	s.WriteClientConfig(t, cfg, key, s.KnownHosts)
	c := dial(t, s, "/", Options{ConfigFile: cfg})
	ctx := context.Background()
	err := c.Connect(ctx)
	why, ok := c.Answerable(ctx, err)
	if !errors.Is(err, ErrAuthRefused) || !ok || why != key+" needs its passphrase" {
		t.Fatalf("a key with a passphrase: %v, answerable %q %v", err, why, ok)
	}
}

func TestDeniedMethodsAndSSHConfig(t *testing.T) {
	m := deniedMethods("me@127.0.0.1: Permission denied (publickey,password, keyboard-interactive).")
	if len(m) != 3 || !m["publickey"] || !m["password"] || !m["keyboard-interactive"] {
		t.Errorf("deniedMethods = %v", m)
	}
	if m := deniedMethods("Permission denied (publickey"); m != nil {
		t.Errorf("an unclosed list: %v", m)
	}
	conf := parseSSHConfig([]byte("user me\nIdentityFile ~/.ssh/a\nidentityfile /k b\nstricthostkeychecking ask\n\nnovalue\n"))
	if conf.get("user") != "me" || strings.Join(conf.all("identityfile"), "|") != "~/.ssh/a|/k b" || conf.get("stricthostkeychecking") != "ask" || conf.get("novalue") != "" {
		t.Errorf("parseSSHConfig = %v", conf)
	}
}

func FuzzFirstConnectParsers(f *testing.F) {
	f.Add("me@h: Permission denied (publickey,password).", []byte("user me\nidentityfile ~/.ssh/id\n"))
	f.Add("Permission denied ()", []byte("\n \n k  v  \n"))
	f.Fuzz(func(t *testing.T, line string, conf []byte) {
		for k := range deniedMethods(line) {
			if k == "" || strings.ContainsAny(k, ",)") || k != strings.TrimSpace(k) {
				t.Fatalf("deniedMethods(%q) has %q", line, k)
			}
		}
		for k, vs := range parseSSHConfig(conf) {
			if k == "" || k != strings.ToLower(k) || strings.ContainsAny(k, " \n") || len(vs) == 0 {
				t.Fatalf("parseSSHConfig(%q): key %q, values %q", conf, k, vs)
			}
			for _, v := range vs {
				if strings.Contains(v, "\n") {
					t.Fatalf("parseSSHConfig(%q): value %q", conf, v)
				}
			}
		}
	})
}

package remote

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The first connection: Connect runs in batch mode, so ssh never asks
// and never hangs. When it fails, Answerable says whether a person at a
// terminal could have answered what ssh wanted to ask (then the caller
// runs Interactive in a terminal tab); every other failure is the one
// line it is.

// Answerable reports whether err, a batch-mode Connect's, is one a person
// can answer in an interactive ssh, and what ssh would ask (a clause:
// "a password is needed"):
//
//   - a host key not known yet, unless the config checks host keys
//     strictly (StrictHostKeyChecking yes: ssh would refuse anyway);
//   - authentication refused where the server takes a password or a
//     keyboard-interactive login the client config allows, or takes
//     public keys and one of the client's identity files has a
//     passphrase (a key refused as such is no question).
//
// A host key that changed, an unknown or unreachable host, or a refused
// key are not: their *Error is the line to show. It asks ssh for the
// effective client config (ssh -G) and ssh-keygen whether an identity
// needs its passphrase, within the Conn's timeout.
func (c *Conn) Answerable(ctx context.Context, err error) (string, bool) {
	var e *Error
	if !errors.As(err, &e) {
		return "", false
	}
	if e.Kind != ErrHostKeyUnknown && e.Kind != ErrAuthRefused {
		return "", false
	}
	ctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	out, gerr := c.command(ctx, append(c.sshArgs(false), "-G"), "").Output()
	if gerr != nil {
		return "", false
	}
	conf := parseSSHConfig(out)
	if e.Kind == ErrHostKeyUnknown {
		switch conf.get("stricthostkeychecking") {
		case "yes", "true":
			return "", false
		}
		return "the host key of " + c.t.Host + " is not known yet", true
	}
	methods := deniedMethods(e.Line)
	if methods["password"] && conf.get("passwordauthentication") == "yes" {
		return "a password is needed", true
	}
	if methods["keyboard-interactive"] && conf.get("kbdinteractiveauthentication") == "yes" {
		return "a password is needed", true
	}
	if methods["publickey"] {
		for _, id := range conf.all("identityfile") {
			if needsPassphrase(ctx, expandHome(id)) {
				return id + " needs its passphrase", true
			}
		}
	}
	return "", false
}

// sshConfig is ssh -G's output: lowercase keys, each with its values in
// order.
type sshConfig map[string][]string

func (s sshConfig) get(k string) string {
	if v := s[k]; len(v) > 0 {
		return v[0]
	}
	return ""
}

func (s sshConfig) all(k string) []string { return s[k] }

// parseSSHConfig reads ssh -G's "key value" lines.
func parseSSHConfig(b []byte) sshConfig {
	conf := sshConfig{}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok || k == "" {
			continue
		}
		k = strings.ToLower(k)
		conf[k] = append(conf[k], strings.TrimSpace(v))
	}
	return conf
}

// deniedMethods reads the methods of ssh's "Permission denied
// (publickey,password)." line.
func deniedMethods(line string) map[string]bool {
	_, rest, ok := strings.Cut(line, "Permission denied (")
	if !ok {
		return nil
	}
	list, _, ok := strings.Cut(rest, ")")
	if !ok {
		return nil
	}
	m := map[string]bool{}
	for _, s := range strings.Split(list, ",") {
		if s = strings.TrimSpace(s); s != "" {
			m[s] = true
		}
	}
	return m
}

// expandHome is ssh -G's ~/ path as a path.
func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}

// needsPassphrase reports whether the private key at path is one
// ssh-keygen cannot read without a passphrase.
func needsPassphrase(ctx context.Context, path string) bool {
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "ssh-keygen", "-y", "-P", "", "-f", path)
	cmd.Stderr = &stderr
	return cmd.Run() != nil && strings.Contains(stderr.String(), "passphrase")
}

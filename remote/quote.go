package remote

import (
	"fmt"
	"strings"
)

// quote is s as one POSIX shell word.
func quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// quoteArgs is argv as shell words.
func quoteArgs(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = quote(a)
	}
	return strings.Join(q, " ")
}

// loginShell is the remote command line running script in the remote
// user's login shell (so ~/.profile's PATH applies), after cd dir (unless
// "") and with env (KEY=value) exported: `exec "$SHELL" -lc '…'`. The
// outer line is read by the shell sshd starts, the inner by the login
// shell; each level is quoted for its reader.
func loginShell(dir string, env []string, script string) (string, error) {
	var b strings.Builder
	if dir != "" {
		b.WriteString("cd " + quote(dir) + " && ")
	}
	for _, kv := range env {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || !validName(name) {
			return "", fmt.Errorf("remote: environment entry %q is not NAME=value", clip(kv))
		}
		b.WriteString("export " + name + "=" + quote(value) + " && ")
	}
	b.WriteString(script)
	return `exec "${SHELL:-/bin/sh}" -lc ` + quote(b.String()), nil
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

package remote

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"strconv"
	"strings"
	"unicode"
)

// Entry is one `[remotes.NAME]` table of the config: the target and,
// optionally, the agent to run there. The config package can hold a
// map[string]Entry; Parse takes one.
type Entry struct {
	Target string `toml:"target"`
	Agent  string `toml:"agent,omitempty"`
}

// Target is a parsed remote project.
type Target struct {
	Name  string // the config entry's name, when the target came from one
	User  string // "" lets ssh choose (its config, then the local user)
	Host  string // a host name, an address, or a Host alias of ssh's config
	Port  int    // 0 lets ssh choose (its config, then 22)
	Path  string // the project directory on the remote, absolute
	Agent string // the entry's agent, when it names one
}

// Parse reads a remote target: `[user@]host[:port]:/path`,
// `ssh://[user@]host[:port]/path`, or the name of an entry of entries
// (whose Target is one of the first two). Errors are one line.
func Parse(s string, entries map[string]Entry) (Target, error) {
	if s == "" {
		return Target{}, errors.New("remote: empty target: want [user@]host[:port]:/path, ssh://user@host:port/path or the name of a [remotes.NAME] entry")
	}
	if !strings.Contains(s, ":") {
		e, ok := entries[s]
		if !ok {
			return Target{}, fmt.Errorf("remote: %q is neither a target ([user@]host[:port]:/path, ssh://user@host:port/path) nor the name of a [remotes.NAME] entry of the config", clip(s))
		}
		t, err := parseTarget(e.Target)
		if err != nil {
			return Target{}, fmt.Errorf("remote: [remotes.%s] target: %s", s, strings.TrimPrefix(err.Error(), "remote: "))
		}
		t.Name, t.Agent = s, e.Agent
		return t, nil
	}
	return parseTarget(s)
}

func parseTarget(s string) (Target, error) {
	if strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) }) {
		return Target{}, errors.New("remote: the target holds a control character")
	}
	if strings.HasPrefix(s, "ssh://") {
		return parseURL(s)
	}
	if strings.Contains(s, "://") {
		return Target{}, fmt.Errorf("remote: %q: only ssh:// URLs are targets", clip(s))
	}
	i := strings.Index(s, ":/")
	if strings.HasPrefix(s, "[") || strings.Contains(s, "@[") {
		// [v6]:/path or [v6]:port:/path: the colon after the bracket.
		j := strings.Index(s, "]")
		if j < 0 {
			return Target{}, fmt.Errorf("remote: %q: unclosed [ in the host", clip(s))
		}
		k := strings.Index(s[j:], ":/")
		if k < 0 {
			i = -1
		} else {
			i = j + k
		}
	}
	if i < 0 {
		return Target{}, fmt.Errorf("remote: %q has no absolute path: want [user@]host[:port]:/path", clip(s))
	}
	t := Target{Path: s[i+1:]}
	hostport := s[:i]
	if u, h, ok := strings.Cut(hostport, "@"); ok {
		t.User, hostport = u, h
	}
	host := hostport
	if strings.HasPrefix(hostport, "[") {
		j := strings.Index(hostport, "]")
		host = hostport[1:j]
		rest := hostport[j+1:]
		if rest != "" {
			p, ok := strings.CutPrefix(rest, ":")
			if !ok {
				return Target{}, fmt.Errorf("remote: %q: unexpected %q after the host", clip(s), clip(rest))
			}
			port, err := parsePort(p)
			if err != nil {
				return Target{}, err
			}
			t.Port = port
		}
	} else if h, p, ok := strings.Cut(hostport, ":"); ok {
		port, err := parsePort(p)
		if err != nil {
			return Target{}, err
		}
		host, t.Port = h, port
	}
	t.Host = host
	return t.clean()
}

// clean checks t and cleans its path (path.Clean: no trailing slash, no
// doubled slash, no dot segment).
func (t Target) clean() (Target, error) {
	if err := t.check(); err != nil {
		return Target{}, err
	}
	t.Path = path.Clean(t.Path)
	return t, nil
}

func parseURL(s string) (Target, error) {
	u, err := url.Parse(s)
	if err != nil {
		return Target{}, fmt.Errorf("remote: %q is not a URL: %v", clip(s), unwrapURL(err))
	}
	if u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return Target{}, fmt.Errorf("remote: %q: an ssh:// target has no query or fragment", clip(s))
	}
	if _, set := u.User.Password(); set {
		return Target{}, errors.New("remote: an ssh:// target holds no password (ssh asks for it)")
	}
	t := Target{User: u.User.Username(), Host: u.Hostname(), Path: u.Path}
	if p := u.Port(); p != "" {
		port, err := parsePort(p)
		if err != nil {
			return Target{}, err
		}
		t.Port = port
	} else if strings.HasSuffix(u.Host, ":") {
		return Target{}, fmt.Errorf("remote: %q: empty port", clip(s))
	}
	if t.Path == "" {
		return Target{}, fmt.Errorf("remote: %q has no path: want ssh://user@host:port/path", clip(s))
	}
	return t.clean()
}

func unwrapURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func parsePort(p string) (int, error) {
	n, err := strconv.Atoi(p)
	if err != nil || n < 1 || n > 65535 || strings.HasPrefix(p, "+") {
		return 0, fmt.Errorf("remote: port %q is not a number from 1 to 65535", clip(p))
	}
	return n, nil
}

// check refuses what ssh would misread: an empty or option-like host or
// user, spaces, a relative path.
func (t Target) check() error {
	ctl := func(r rune) bool { return unicode.IsControl(r) }
	switch {
	case strings.ContainsFunc(t.Host+t.User+t.Path, ctl):
		return errors.New("remote: the target holds a control character")
	case t.Host == "":
		return errors.New("remote: the target has no host")
	case strings.HasPrefix(t.Host, "-"):
		return fmt.Errorf("remote: host %q starts with '-'", clip(t.Host))
	case strings.ContainsAny(t.Host, " \t@/\\'\"`$;&|<>()*?!#"):
		return fmt.Errorf("remote: host %q holds a character no host name has", clip(t.Host))
	case strings.HasPrefix(t.User, "-"):
		return fmt.Errorf("remote: user %q starts with '-'", clip(t.User))
	case strings.ContainsAny(t.User, " \t:/@"):
		return fmt.Errorf("remote: user %q holds a character no user name has", clip(t.User))
	case !strings.HasPrefix(t.Path, "/"):
		return fmt.Errorf("remote: path %q is not absolute", clip(t.Path))
	}
	return nil
}

// Key is the project key of the remote project in the local store:
// ssh://host/path, with :port when the target names a port other than 22.
// The user is not part of it: the path names the directory.
func (t Target) Key() string {
	host := t.Host
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if t.Port != 0 && t.Port != 22 {
		host += ":" + strconv.Itoa(t.Port)
	}
	return "ssh://" + host + t.Path
}

// String is the target as [user@]host[:port]:/path.
func (t Target) String() string {
	var b strings.Builder
	if t.User != "" {
		b.WriteString(t.User + "@")
	}
	if strings.Contains(t.Host, ":") {
		b.WriteString("[" + t.Host + "]")
	} else {
		b.WriteString(t.Host)
	}
	if t.Port != 0 {
		b.WriteString(":" + strconv.Itoa(t.Port))
	}
	b.WriteString(":" + t.Path)
	return b.String()
}

// clip shortens what an error quotes.
func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

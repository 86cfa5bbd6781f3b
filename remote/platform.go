package remote

import (
	"context"
	"fmt"
	"strings"
)

// Platform is a machine's OS and architecture as Go names them
// (runtime.GOOS, runtime.GOARCH): "linux", "amd64".
type Platform struct{ OS, Arch string }

func (p Platform) String() string { return p.OS + "/" + p.Arch }

// unameOS and unameArch map `uname -s` and `uname -m` onto Go's names.
var (
	unameOS = map[string]string{
		"Linux": "linux", "Darwin": "darwin", "FreeBSD": "freebsd", "OpenBSD": "openbsd",
		"NetBSD": "netbsd", "DragonFly": "dragonfly", "SunOS": "solaris", "AIX": "aix",
	}
	unameArch = map[string]string{
		"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64",
		"i386": "386", "i486": "386", "i586": "386", "i686": "386", "i86pc": "386",
		"armv6l": "arm", "armv7l": "arm", "armv7": "arm", "arm": "arm",
		"riscv64": "riscv64", "ppc64le": "ppc64le", "ppc64": "ppc64", "s390x": "s390x",
		"loongarch64": "loong64", "mips64": "mips64", "mips": "mips",
	}
)

// ParseUname reads `uname -sm`'s output (its last non-empty line: a login
// shell may print before it) as a Platform; an error names what it did
// not know.
func ParseUname(out string) (Platform, error) {
	line := ""
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			line = l
		}
	}
	f := strings.Fields(line)
	if len(f) != 2 {
		return Platform{}, fmt.Errorf("remote: uname -sm said %q, not a system and a machine", clip(line))
	}
	goos, ok := unameOS[f[0]]
	if !ok {
		return Platform{}, fmt.Errorf("remote: an unknown system %q", clip(f[0]))
	}
	arch, ok := unameArch[f[1]]
	if !ok {
		return Platform{}, fmt.Errorf("remote: an unknown machine %q", clip(f[1]))
	}
	return Platform{OS: goos, Arch: arch}, nil
}

// Uname is the remote's `uname -sm`, as its login shell prints it.
func (c *Conn) Uname(ctx context.Context) (string, error) {
	out, err := c.Run(ctx, []string{"uname", "-sm"}, nil)
	return string(out), err
}

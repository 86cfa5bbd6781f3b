package config

import (
	"strings"
	"testing"
	"time"
)

// [remotes.NAME] entries and [remote] settings are read; a bad entry, a
// bad timeout or a negative budget is one line naming the file.
func TestConfigRemotes(t *testing.T) {
	p := writeConfig(t, `[remote]
timeout = "3s"
cache_bytes = 1024
[remotes.dev]
target = "me@devbox:/srv/app"
agent = "acp:claude-agent-acp"
`)
	c, err := Load(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if e := c.Remotes["dev"]; e.Target != "me@devbox:/srv/app" || e.Agent != "acp:claude-agent-acp" {
		t.Errorf("remotes.dev = %+v", e)
	}
	if c.Remote.TimeoutDuration() != 3*time.Second || c.Remote.CacheBytes != 1024 {
		t.Errorf("remote = %+v", c.Remote)
	}
	if d := (RemoteConfig{}).TimeoutDuration(); d != 15*time.Second {
		t.Errorf("default timeout %v", d)
	}
	for _, bad := range []string{
		"[remotes.dev]\ntarget = \"devbox:relative\"\n",
		"[remotes.dev]\nagent = \"echo\"\n",
		"[remote]\ntimeout = \"soon\"\n",
		"[remote]\ncache_bytes = -1\n",
		"[remotes.dev]\ntarget = \"h:/p\"\nport = 2\n",
	} {
		p := writeConfig(t, bad)
		_, err := Load(p, nil)
		if err == nil || !strings.Contains(err.Error(), p) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

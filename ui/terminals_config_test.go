package ui

import (
	"strings"
	"testing"
)

func TestConfigACPTerminals(t *testing.T) {
	if d := DefaultConfig().ACP.Terminals; d != "allow" {
		t.Errorf("default [acp] terminals = %q, want allow", d)
	}
	for _, v := range []string{"allow", "ask", "deny"} {
		c, err := LoadConfig(writeConfig(t, "[acp]\nterminals = \""+v+"\"\n"))
		if err != nil || c.ACP.Terminals != v {
			t.Errorf("terminals = %q: %+v, %v", v, c.ACP, err)
		}
	}
	for _, v := range []string{"", "Allow", "never"} {
		_, err := LoadConfig(writeConfig(t, "[acp]\nterminals = \""+v+"\"\n"))
		if err == nil || !strings.Contains(err.Error(), `acp.terminals = "`+v+`": allowed are "allow", "ask"`) {
			t.Errorf("terminals = %q: err = %v, want it refused naming the setting", v, err)
		}
	}
	if _, err := LoadConfig(writeConfig(t, "[acp]\nshell = \"allow\"\n")); err == nil || !strings.Contains(err.Error(), "unknown setting acp.shell") {
		t.Errorf("an unknown [acp] key: %v", err)
	}
}

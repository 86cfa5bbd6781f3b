package ui

import (
	"strings"
	"testing"

	"github.com/chipchat/chipchat/agent"
)

func TestConfigReplyBytes(t *testing.T) {
	if d := DefaultConfig().Limits; d.ReplyBytes != agent.DefaultReplyBytes {
		t.Errorf("default reply_bytes = %d, want %d", d.ReplyBytes, agent.DefaultReplyBytes)
	}
	c, err := LoadConfig(writeConfig(t, "[limits]\nreply_bytes = 131072\n"))
	if err != nil || c.Limits.ReplyBytes != 131072 {
		t.Errorf("reply_bytes = 131072: %+v, %v", c.Limits, err)
	}
	_, err = LoadConfig(writeConfig(t, "[limits]\nreply_bytes = 100\n"))
	if err == nil || !strings.Contains(err.Error(), "limits.reply_bytes = 100") {
		t.Errorf("reply_bytes = 100: err = %v, want it refused naming the setting", err)
	}
}

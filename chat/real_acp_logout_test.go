//go:build unix

package chat

import (
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/internal/acpagents"
	"github.com/chipchat/chipchat/message"
)

// TestRealAgentsLogout is /logout against the real agents (on a fake
// model server; only with CHIPCHAT_REAL_AGENTS=1). Codex (codex-acp
// 0.16.0) advertises a /logout command of its own: typed, it goes to the
// agent. Claude Code (claude-agent-acp 0.101.0) has none but offers ACP's
// logout (agentCapabilities.auth.logout): chipchat's /logout calls it, the
// agent answers, and a notice says so; the next turn still reaches the
// model (the key in the agent's environment is no sign-in to lose).
func TestRealAgentsLogout(t *testing.T) {
	acpagents.Each(t, realLogout, "claude", "codex")
}

func realLogout(t *testing.T, ag acpagents.Agent) {
	r := newRealAgent(t, ag, nil)
	// The agents tell their commands in the first turns.
	for i := 0; i < 3 && len(r.s.Info(r.thread.ID).Commands) == 0; i++ {
		r.turn(t, "Please answer "+acpagents.MarkPing1)
	}
	sl, ours := r.s.SlashFor(r.thread.ID, "/logout", false, "")
	own := ag.Name == "codex"
	if got := r.s.Info(r.thread.ID).AgentServes("logout"); got != own {
		t.Fatalf("%s serves /logout itself: %v, want %v (commands %+v)", ag.Name, got, own, r.s.Info(r.thread.ID).Commands)
	}
	if own {
		if ours {
			t.Errorf("/logout is chipchat's (%+v), not %s's own command", sl, ag.Name)
		}
		return
	}
	if !ours || sl.Name != "logout" || sl.Cannot != "" {
		t.Fatalf("/logout is not chipchat's command: %+v %v", sl, ours)
	}
	r.s.Logout(r.thread.ID)
	n := untilWithin(r.env, 30*time.Second, func(n Notice) bool { return strings.Contains(n.Text, "signed out") || n.Err })
	if n.Err || !strings.Contains(n.Text, "signed out of") {
		t.Fatalf("logout: %q", n.Text)
	}
	if fin := r.turn(t, "After the logout "+acpagents.MarkPing2); fin.Status != message.StatusDone || fin.Err != nil {
		t.Errorf("the turn after the logout ended %s: %v", fin.Status, fin.Err)
	}
	realMainRequest(t, r.srv.Exchanges(), "After the logout")
}

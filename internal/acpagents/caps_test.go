package acpagents

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	acp "github.com/coder/acp-go-sdk"
)

// CapsReport is what an agent does when the client offers its file system
// and terminals (as Zed does, and as chipchat will).
type CapsReport struct {
	Agent       string   `json:"agent"`
	AuthMethods []string `json:"authMethodsWithTerminalAuth"`
	EditCalls   []string `json:"clientCallsForTheEdit"`
	ShellCalls  []string `json:"clientCallsForTheShell"`
	ShellTool   []string `json:"shellToolCallContent"`
	Terminal    string   `json:"terminalCreate,omitempty"`
}

func TestRealAgentsClientCapabilities(t *testing.T) {
	gate(t)
	caps := acp.ClientCapabilities{
		Fs:       acp.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true},
		Terminal: true,
		Auth:     acp.AuthCapabilities{Terminal: true},
	}
	for _, a := range Agents {
		t.Run(a.Name, func(t *testing.T) {
			t.Parallel()
			needAgent(t, a)
			e := expect(t, a)
			r := startAgent(t, a, caps)
			rep := &CapsReport{Agent: a.Name, AuthMethods: authMethods(r.p.Init.AuthMethods)}
			defer func() {
				b, _ := json.MarshalIndent(rep, "", "  ")
				t.Logf("report:\n%s", b)
			}()
			// With auth.terminal, Claude Code lists its terminal sign-in
			// methods; the others list what they list without it.
			checkList(t, "auth methods with auth.terminal", authIDs(r.p.Init.AuthMethods), e.AuthTerminal)
			for _, m := range r.p.Init.AuthMethods {
				if m.Terminal != nil && (len(m.Terminal.Args) < 3 || strings.Join(m.Terminal.Args[:3], " ") != "--cli auth login") {
					t.Errorf("terminal auth method %s: args %q, want --cli auth login …", m.Terminal.Id, m.Terminal.Args)
				}
			}
			t.Run("edit", func(t *testing.T) {
				r.client.SetDecide(PickKind(acp.PermissionOptionKindAllowOnce))
				_, evs := r.prompt(t, acp.TextBlock("Edit notes.txt: "+MarkEditAllow))
				rep.EditCalls = clientCalls(evs)
				checkList(t, "client methods called for the edit", rep.EditCalls, e.FSOffered)
				if got, _ := os.ReadFile(r.files.Notes); !strings.Contains(string(got), r.files.AllowLine) {
					t.Errorf("notes.txt after the allowed edit: %q (client calls %v)", got, rep.EditCalls)
				}
			})
			t.Run("shell", func(t *testing.T) {
				r.client.SetDecide(PickKind(acp.PermissionOptionKindAllowOnce))
				_, evs := r.prompt(t, acp.TextBlock("Run a command: "+MarkShell))
				rep.ShellCalls = clientCalls(evs)
				for _, e := range evs {
					if e.Kind == "terminal/create" && rep.Terminal == "" {
						rep.Terminal = e.JSON
					}
					if u := e.Update; u != nil && u.Update.ToolCallUpdate != nil {
						for _, k := range ToolContentKinds(u.Update.ToolCallUpdate.Content) {
							if !contains(rep.ShellTool, k) {
								rep.ShellTool = append(rep.ShellTool, k)
							}
						}
					}
				}
				// No agent runs the command in a client terminal.
				if len(rep.ShellCalls) > 0 {
					t.Errorf("client methods called for the command: %q, want none (terminal/create: %s)", rep.ShellCalls, rep.Terminal)
				}
				checkList(t, "content kinds of the command's tool call updates", rep.ShellTool, e.ShellContent)
				ex := lastWith(r.srv, MarkShell)
				if ex == nil || len(ex.LastToolResults()) == 0 || !strings.Contains(ex.LastToolResults()[0].Output, r.files.CommandOut) {
					t.Errorf("the model did not get the command's output %q (client calls %v)", r.files.CommandOut, rep.ShellCalls)
				}
			})
		})
	}
}

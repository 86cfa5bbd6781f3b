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
			if !a.Available() {
				t.Skipf("%s is not installed (npm install -g %s; .ci/run does)", a.Binary, a.Package)
			}
			r := startAgent(t, a, caps)
			rep := &CapsReport{Agent: a.Name, AuthMethods: authMethods(r.p.Init.AuthMethods)}
			defer func() {
				b, _ := json.MarshalIndent(rep, "", "  ")
				t.Logf("report:\n%s", b)
			}()
			t.Run("edit", func(t *testing.T) {
				r.client.SetDecide(PickKind(acp.PermissionOptionKindAllowOnce))
				_, evs := r.prompt(t, acp.TextBlock("Edit notes.txt: "+MarkEditAllow))
				rep.EditCalls = clientCalls(evs)
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
				ex := lastWith(r.srv, MarkShell)
				if ex == nil || len(ex.LastToolResults()) == 0 || !strings.Contains(ex.LastToolResults()[0].Output, r.files.CommandOut) {
					t.Errorf("the model did not get the command's output %q (client calls %v)", r.files.CommandOut, rep.ShellCalls)
				}
			})
		})
	}
}

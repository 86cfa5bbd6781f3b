package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	acp "github.com/coder/acp-go-sdk"
)

// Elicitation on the wire (acp_elicit_form.go has the form). acp-go-sdk
// v0.13.0 decodes elicitation/create into a type whose form variant drops
// the sessionId (its scope is flattened into the request), so chipchat's
// line reader (acp_lines.go) renames elicitation/create and
// elicitation/complete to chipchat's own extension methods before the SDK
// sees them: the SDK hands their raw params to HandleExtensionMethod,
// which decodes them here (acpDecodeElicit).
//
//   - A form or URL elicitation of a session with a running turn becomes an
//     Elicitation event; the connection goroutine waits for the Reply or
//     the end of the turn (then it answers "cancel"). One for a session
//     with no running turn (after the turn ended, or before a session
//     exists: request-scoped) is answered "cancel" at once.
//   - A request chipchat cannot decode is answered with an invalid-params
//     error and, when its session has a running turn, a Notice says so.
//   - elicitation/complete for a URL elicitation becomes ElicitationDone in
//     the running turn of any session (it names no session); otherwise it
//     is dropped.
//   - The capabilities offer both modes (clientCapabilities.elicitation).

const (
	acpElicitMethod     = "_chipchat/elicitation/create"
	acpElicitDoneMethod = "_chipchat/elicitation/complete"
)

// Elicitation asks the user for input: a form to fill in, or a URL to open
// (Request.Mode). The backend waits for one value on Reply (buffered,
// capacity 1) or for its turn's context to end.
type Elicitation struct {
	Request ElicitRequest
	Reply   chan<- ElicitAnswer
}

// ElicitationDone says the agent finished the URL elicitation of that id
// (ACP's elicitation/complete).
type ElicitationDone struct{ ElicitationID string }

func (Elicitation) isEvent()     {}
func (ElicitationDone) isEvent() {}

var acpElicitNeedle = []byte(`"elicitation/c`)

// acpRenameElicit is line with the method elicitation/create or
// elicitation/complete renamed to chipchat's extension method, else line.
func acpRenameElicit(line []byte) []byte {
	if !bytes.Contains(line, acpElicitNeedle) {
		return line
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(line, &m) != nil {
		return line
	}
	var to string
	switch m.Method {
	case "elicitation/create":
		to = acpElicitMethod
	case "elicitation/complete":
		to = acpElicitDoneMethod
	default:
		return line
	}
	out := map[string]any{"jsonrpc": "2.0", "method": to}
	if len(m.ID) > 0 && !bytes.Equal(m.ID, []byte("null")) {
		out["id"] = m.ID
	}
	if len(m.Params) > 0 {
		out["params"] = m.Params
	}
	b, err := json.Marshal(out)
	if err != nil {
		return line
	}
	return append(b, '\n')
}

func acpElicitCaps() *acp.ElicitationCapabilities {
	return &acp.ElicitationCapabilities{Form: &acp.ElicitationFormCapabilities{}, Url: &acp.ElicitationUrlCapabilities{}}
}

var acpElicitCancel = map[string]any{"action": "cancel"}

// elicit serves elicitation/create.
func (c *acpClient) elicit(ctx context.Context, params json.RawMessage) (any, error) {
	r, err := acpDecodeElicit(params)
	if err != nil {
		var scope struct {
			SessionID string `json:"sessionId"`
		}
		_ = json.Unmarshal(params, &scope)
		if t := c.turn(acp.SessionId(scope.SessionID)); t != nil && scope.SessionID != "" {
			t.mu.Lock()
			t.push(Notice{Text: "the agent asked a question chipchat cannot show (" + strings.TrimPrefix(err.Error(), "elicitation: ") + "); it was answered with an error"})
			t.mu.Unlock()
		}
		return nil, acp.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	t := c.turn(acp.SessionId(r.SessionID))
	if r.SessionID == "" || t == nil || t.ctx.Err() != nil {
		return acpElicitCancel, nil
	}
	reply := make(chan ElicitAnswer, 1)
	t.mu.Lock()
	t.push(Elicitation{Request: r, Reply: reply})
	t.mu.Unlock()
	var ans ElicitAnswer
	select {
	case ans = <-reply:
	case <-t.ctx.Done():
		return acpElicitCancel, nil
	case <-t.over:
		return acpElicitCancel, nil
	case <-ctx.Done():
		return acpElicitCancel, nil
	}
	switch ans.Action {
	case "accept":
		out := map[string]any{"action": "accept"}
		if r.Mode == "form" {
			content := ans.Content
			if content == nil {
				content = map[string]any{}
			}
			out["content"] = content
		}
		return out, nil
	case "decline":
		return map[string]any{"action": "decline"}, nil
	}
	return acpElicitCancel, nil
}

// elicitDone serves elicitation/complete.
func (c *acpClient) elicitDone(params json.RawMessage) {
	var p struct {
		ElicitationID string `json:"elicitationId"`
	}
	if json.Unmarshal(params, &p) != nil || p.ElicitationID == "" {
		return
	}
	c.a.mu.Lock()
	turns := make([]*acpTurn, 0, len(c.a.turns))
	for _, t := range c.a.turns {
		turns = append(turns, t)
	}
	c.a.mu.Unlock()
	for _, t := range turns {
		t.mu.Lock()
		t.push(ElicitationDone{ElicitationID: elicitCut(p.ElicitationID)})
		t.mu.Unlock()
	}
}

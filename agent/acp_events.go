package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chipchat/chipchat/message"
)

// acpTurn queues the events of one running turn; the connection's
// goroutines push them, Run's goroutine emits them (so emit is never called
// concurrently).
type acpTurn struct {
	ctx    context.Context
	notify chan struct{} // cap 1: "something to flush"
	over   chan struct{} // closed when Run has returned

	mu     sync.Mutex
	events []Event
	tools  map[string]*message.Tool // the calls this turn has seen, as they stand
	order  []string                 // their ids, oldest first
}

func newACPTurn(ctx context.Context) *acpTurn {
	return &acpTurn{ctx: ctx, notify: make(chan struct{}, 1), over: make(chan struct{}), tools: map[string]*message.Tool{}}
}

// push queues events; t.mu must be held.
func (t *acpTurn) push(evs ...Event) {
	t.events = append(t.events, evs...)
	t.poke()
}

// poke wakes Run's loop.
func (t *acpTurn) poke() {
	select {
	case t.notify <- struct{}{}:
	default:
	}
}

func (t *acpTurn) flush(emit func(Event)) {
	t.mu.Lock()
	evs := t.events
	t.events = nil
	t.mu.Unlock()
	for _, e := range evs {
		emit(e)
	}
}

// update turns one session update into events.
func (t *acpTurn) update(u acp.SessionUpdate) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case u.AgentMessageChunk != nil:
		if s := acpContentText(u.AgentMessageChunk.Content); s != "" {
			t.push(TextDelta{s})
		}
	case u.AgentThoughtChunk != nil:
		if s := acpContentText(u.AgentThoughtChunk.Content); s != "" {
			t.push(ThoughtDelta{s})
		}
	case u.ToolCall != nil:
		tc := u.ToolCall
		tool := message.Tool{
			CallID:    string(tc.ToolCallId),
			Kind:      string(tc.Kind),
			Title:     tc.Title,
			Status:    string(tc.Status),
			Locations: acpLocations(tc.Locations),
			RawInput:  acpRaw(tc.RawInput),
			RawOutput: acpRaw(tc.RawOutput),
			Content:   acpToolContent(tc.Content),
		}
		if tool.Status == "" {
			tool.Status = message.ToolPending
		}
		t.startTool(tool)
	case u.ToolCallUpdate != nil:
		tu := u.ToolCallUpdate
		t.updateTool(acp.ToolCallUpdate{
			ToolCallId: tu.ToolCallId, Kind: tu.Kind, Title: tu.Title, Status: tu.Status,
			Locations: tu.Locations, RawInput: tu.RawInput, RawOutput: tu.RawOutput, Content: tu.Content,
		})
	case u.Plan != nil:
		entries := make([]message.PlanEntry, 0, len(u.Plan.Entries))
		for _, e := range u.Plan.Entries {
			entries = append(entries, message.PlanEntry{Content: e.Content, Priority: string(e.Priority), Status: string(e.Status)})
		}
		t.push(Plan{Entries: entries})
	case u.UsageUpdate != nil:
		t.push(Usage{ContextUsed: int64(u.UsageUpdate.Used), ContextSize: int64(u.UsageUpdate.Size)})
	}
}

// startTool records a new call and queues its ToolCall; t.mu must be held.
// A call already known (a permission request, handled concurrently with
// the notifications, may come first) is updated with tool's fields instead.
func (t *acpTurn) startTool(tool message.Tool) {
	if old := t.tools[tool.CallID]; old != nil {
		ev := ToolUpdate{CallID: tool.CallID, Locations: tool.Locations, RawInput: tool.RawInput, RawOutput: tool.RawOutput, Content: tool.Content}
		if tool.Kind != "" {
			ev.Kind = &tool.Kind
		}
		if tool.Title != "" {
			ev.Title = &tool.Title
		}
		if tool.Status != "" && tool.Status != message.ToolPending {
			ev.Status = &tool.Status
		}
		acpApplyUpdate(old, ev)
		t.push(ev)
		return
	}
	c := tool
	t.order = append(t.order, tool.CallID)
	t.tools[tool.CallID] = &c
	t.push(ToolCall{Tool: acpCopyTool(tool)})
}

// updateTool applies an update to a call (a call this turn has not seen
// starts with it) and queues the event; t.mu must be held.
func (t *acpTurn) updateTool(tu acp.ToolCallUpdate) {
	id := string(tu.ToolCallId)
	ev := ToolUpdate{CallID: id, Locations: acpLocations(tu.Locations), RawInput: acpRaw(tu.RawInput), RawOutput: acpRaw(tu.RawOutput)}
	if tu.Kind != nil {
		k := string(*tu.Kind)
		ev.Kind = &k
	}
	if tu.Title != nil {
		ev.Title = tu.Title
	}
	if tu.Status != nil {
		s := string(*tu.Status)
		ev.Status = &s
	}
	if tu.Content != nil {
		ev.Content = acpToolContent(tu.Content)
		if ev.Content == nil {
			ev.Content = []message.ToolContent{}
		}
	}
	tool := t.tools[id]
	if tool == nil {
		nt := message.Tool{CallID: id, Status: message.ToolPending}
		acpApplyUpdate(&nt, ev)
		t.startTool(nt)
		return
	}
	acpApplyUpdate(tool, ev)
	t.push(ev)
}

func acpApplyUpdate(tool *message.Tool, ev ToolUpdate) {
	if ev.Kind != nil {
		tool.Kind = *ev.Kind
	}
	if ev.Title != nil {
		tool.Title = *ev.Title
	}
	if ev.Status != nil {
		tool.Status = *ev.Status
	}
	if ev.Locations != nil {
		tool.Locations = ev.Locations
	}
	if ev.RawInput != nil {
		tool.RawInput = ev.RawInput
	}
	if ev.RawOutput != nil {
		tool.RawOutput = ev.RawOutput
	}
	if ev.Content != nil {
		tool.Content = ev.Content
	}
}

func acpCopyTool(t message.Tool) message.Tool {
	t.Locations = append([]message.Location(nil), t.Locations...)
	t.Content = append([]message.ToolContent(nil), t.Content...)
	return t
}

func acpLocations(ls []acp.ToolCallLocation) []message.Location {
	if ls == nil {
		return nil
	}
	out := make([]message.Location, 0, len(ls))
	for _, l := range ls {
		loc := message.Location{Path: l.Path}
		if l.Line != nil {
			loc.Line = *l.Line
		}
		out = append(out, loc)
	}
	return out
}

func acpRaw(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// acpToolContent maps a tool call's content: text (and other content
// blocks, as their text), diffs and terminals.
func acpToolContent(cs []acp.ToolCallContent) []message.ToolContent {
	var out []message.ToolContent
	for _, c := range cs {
		switch {
		case c.Diff != nil:
			d := message.ToolContent{Type: message.ContentDiff, Path: c.Diff.Path, NewText: c.Diff.NewText}
			if c.Diff.OldText != nil {
				old := *c.Diff.OldText
				d.OldText = &old
			}
			out = append(out, d)
		case c.Terminal != nil:
			out = append(out, message.ToolContent{Type: message.ContentTerminal, TerminalID: c.Terminal.TerminalId})
		case c.Content != nil:
			if s := acpContentText(c.Content.Content); s != "" {
				out = append(out, message.ToolContent{Type: message.ContentText, Text: s})
			}
		}
	}
	return out
}

// acpContentText is the Markdown for a content block the agent sent.
func acpContentText(c acp.ContentBlock) string {
	switch {
	case c.Text != nil:
		return c.Text.Text
	case c.ResourceLink != nil:
		return "[" + c.ResourceLink.Name + "](" + c.ResourceLink.Uri + ")"
	case c.Resource != nil && c.Resource.Resource.TextResourceContents != nil:
		return c.Resource.Resource.TextResourceContents.Text
	case c.Image != nil:
		return "[image: " + c.Image.MimeType + "]"
	}
	return ""
}

// acpClient is chipchat's side of the connection.
type acpClient struct{ a *ACP }

var _ acp.Client = (*acpClient)(nil)

func (c *acpClient) turn(sid acp.SessionId) *acpTurn {
	c.a.mu.Lock()
	defer c.a.mu.Unlock()
	return c.a.turns[string(sid)]
}

// SessionUpdate keeps state updates, drops replays and updates for a
// session with no running turn, and queues the rest on the turn.
func (c *acpClient) SessionUpdate(_ context.Context, n acp.SessionNotification) error {
	a := c.a
	sid := string(n.SessionId)
	a.mu.Lock()
	s := a.state[sid]
	t := a.turns[sid]
	if s == nil && (t != nil || acpIsStateUpdate(n.Update)) {
		// A state update may come before session/new's answer is handled.
		s = a.session(sid)
	}
	isState := s != nil && s.stateUpdate(n.Update)
	loading := s != nil && s.loading
	if loading {
		select {
		case s.activity <- struct{}{}:
		default:
		}
	}
	dropped := a.dropped
	a.mu.Unlock()
	switch {
	case isState:
		if t != nil {
			t.poke()
		}
	case loading:
		if dropped != nil {
			dropped(sid)
		}
	case t != nil:
		t.update(n.Update)
	}
	return nil
}

func acpIsStateUpdate(u acp.SessionUpdate) bool {
	return u.AvailableCommandsUpdate != nil || u.CurrentModeUpdate != nil || u.ConfigOptionUpdate != nil
}

// RequestPermission asks the user through the turn's Permission event and
// waits for the answer or the end of the turn.
func (c *acpClient) RequestPermission(ctx context.Context, p acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	cancelled := acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeCancelled()}
	t := c.turn(p.SessionId)
	if t == nil {
		return acpReject(p.Options), nil
	}
	if t.ctx.Err() != nil {
		return cancelled, nil
	}
	t.mu.Lock()
	t.updateTool(p.ToolCall)
	tool := acpCopyTool(*t.tools[string(p.ToolCall.ToolCallId)])
	reply := make(chan PermissionAnswer, 1)
	req := message.Permission{ToolCallID: string(p.ToolCall.ToolCallId), Asked: tool.Title}
	if strings.TrimSpace(req.Asked) == "" {
		req.Asked = "a tool call"
	}
	for _, o := range p.Options {
		req.Options = append(req.Options, message.PermissionOption{ID: string(o.OptionId), Name: o.Name, Kind: string(o.Kind)})
	}
	t.push(Permission{Request: req, Tool: tool, Reply: reply})
	t.mu.Unlock()

	var ans PermissionAnswer
	select {
	case ans = <-reply:
	case <-t.ctx.Done():
		return cancelled, nil
	case <-t.over:
		// The turn ended (the grace after a cancel ran out) unanswered.
		return cancelled, nil
	case <-ctx.Done():
		return cancelled, nil
	}
	if t.ctx.Err() != nil {
		return cancelled, nil
	}
	switch ans.Outcome {
	case "cancelled":
		return cancelled, nil
	case "rejected":
		for _, o := range p.Options {
			reject := o.Kind == acp.PermissionOptionKindRejectOnce || o.Kind == acp.PermissionOptionKindRejectAlways
			if reject && ans.OptionID != "" && string(o.OptionId) == ans.OptionID {
				return acpSelected(o.OptionId), nil
			}
		}
		return acpReject(p.Options), nil
	}
	for _, o := range p.Options {
		if string(o.OptionId) == ans.OptionID {
			return acpSelected(o.OptionId), nil
		}
	}
	return cancelled, nil
}

func acpSelected(id acp.PermissionOptionId) acp.RequestPermissionResponse {
	return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeSelected(id)}
}

// acpReject answers with the agent's reject_once option, else its
// reject_always, else cancelled.
func acpReject(opts []acp.PermissionOption) acp.RequestPermissionResponse {
	for _, k := range []acp.PermissionOptionKind{acp.PermissionOptionKindRejectOnce, acp.PermissionOptionKindRejectAlways} {
		for _, o := range opts {
			if o.Kind == k {
				return acpSelected(o.OptionId)
			}
		}
	}
	return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeCancelled()}
}

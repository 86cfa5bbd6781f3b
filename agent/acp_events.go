package agent

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chipchat/chipchat/message"
)

// acpTurn queues the events of one running turn; the connection's
// goroutines push them, Run's goroutine emits them (so emit is never called
// concurrently). Pushing never waits for the emitter: the line reader's
// goroutine (for the updates it decodes itself, acp_update.go) or the
// SDK's notification goroutine applies an update in a step bounded by the
// update's own size (and ReplyBytes), whatever the UI does. While events
// wait, they are coalesced: a text or thought chunk joins the chunk
// before it, an update of a tool call joins the event queued for that call
// (its ToolCall or earlier ToolUpdate), a plan or usage replaces the one
// queued, an ItemPut replaces the one queued for its kind and key. A
// Permission is a barrier: nothing after it joins an event
// before it, so the prompt never shows a state its item has not reached.
//
// A tool item's content is what the tool produced (acpCall): the content
// of kind content/diff/terminal sent once the call started (status no
// longer pending), else the text of its rawOutput (ToolOutputText). Diffs
// and terminals sent before it started, and the diffs of a permission
// request, are kept as the item's diff (before the output, unless the
// output has a diff of the same file). A permission request's text blocks
// are shown on its prompt only. chipchat's own writes and terminals join
// the calls they belong to (write, placeTerminal), each terminal drawn
// with its state as the turn last read it (compose).
type acpTurn struct {
	ctx    context.Context
	alive  context.Context // done when Run has returned (terminal watchers stop)
	stop   context.CancelFunc
	notify chan struct{} // cap 1: "something to flush"
	over   chan struct{} // closed when Run has returned
	limit  int64         // the most of one call's content kept (Limits.ReplyBytes)

	mu      sync.Mutex
	events  []Event                  // *acpRun for coalescing chunks
	at      map[string]int           // call id → the queued event its updates join
	putAt   map[acpPutKey]int        // the queued ItemPut of each kind and key
	planAt  int                      // the queued Plan, or -1
	usageAt int                      // the queued Usage, or -1
	tools   map[string]*message.Tool // the calls this turn has seen, as their items stand
	calls   map[string]*acpCall      // where each call's content came from
	order   []string                 // their ids, oldest first
	terms   map[string]*acpTurnTerm  // terminal id → the terminals created in this turn
	found   map[acpSnip]int          // where each diff snippet was in its file (acp_hunks.go)
}

// acpPutKey is the item an ItemPut changes.
type acpPutKey struct {
	kind message.ItemKind
	key  string
}

// acpRun is a run of text (or thought) chunks coalesced in the queue.
type acpRun struct {
	thought bool
	b       strings.Builder
}

func (*acpRun) isEvent() {}

// acpCall is where a tool call's content came from.
type acpCall struct {
	id      string
	started bool                  // its status left pending
	pre     []message.ToolContent // diffs and terminals from before it started and from permission requests
	post    []message.ToolContent // content sent since it started (nil: none)
	rawText string                // the text of its rawOutput (ToolOutputText)
	hunks   []acpHunk             // the unified diffs of its raw input and output (acp_hunks.go)
	locs    []message.Location    // its locations
}

func newACPTurn(ctx context.Context) *acpTurn {
	alive, stop := context.WithCancel(context.Background())
	return &acpTurn{ctx: ctx, alive: alive, stop: stop, notify: make(chan struct{}, 1), over: make(chan struct{}), limit: DefaultReplyBytes,
		at: map[string]int{}, putAt: map[acpPutKey]int{}, planAt: -1, usageAt: -1, tools: map[string]*message.Tool{}, calls: map[string]*acpCall{},
		terms: map[string]*acpTurnTerm{}, found: map[acpSnip]int{}}
}

// push queues events, coalescing them with those waiting; t.mu must be
// held.
func (t *acpTurn) push(evs ...Event) {
	for _, ev := range evs {
		t.push1(ev)
	}
	t.poke()
}

func (t *acpTurn) push1(ev Event) {
	n := len(t.events)
	switch e := ev.(type) {
	case TextDelta:
		t.pushText(false, e.Text)
		return
	case ThoughtDelta:
		t.pushText(true, e.Text)
		return
	case ToolCall:
		t.at[e.Tool.CallID] = n
	case ToolUpdate:
		if i, ok := t.at[e.CallID]; ok {
			switch q := t.events[i].(type) {
			case ToolCall:
				message.ToolUpdate(e).Apply(&q.Tool)
				t.events[i] = q
				return
			case ToolUpdate:
				t.events[i] = ToolUpdate(message.ToolUpdate(q).Then(message.ToolUpdate(e)))
				return
			}
		}
		t.at[e.CallID] = n
	case ItemPut:
		k := acpPutKey{e.Item.Kind, e.Key}
		if i, ok := t.putAt[k]; ok {
			t.events[i] = e
			return
		}
		t.putAt[k] = n
	case Plan:
		if t.planAt >= 0 {
			t.events[t.planAt] = e
			return
		}
		t.planAt = n
	case Usage:
		if t.usageAt >= 0 {
			t.events[t.usageAt] = e
			return
		}
		t.usageAt = n
	case Permission, Elicitation:
		clear(t.at)
		clear(t.putAt)
		t.planAt, t.usageAt = -1, -1
	}
	t.events = append(t.events, ev)
}

func (t *acpTurn) pushText(thought bool, s string) {
	if s == "" {
		return
	}
	if n := len(t.events); n > 0 {
		if r, ok := t.events[n-1].(*acpRun); ok && r.thought == thought {
			r.b.WriteString(s)
			return
		}
	}
	r := &acpRun{thought: thought}
	r.b.WriteString(s)
	t.events = append(t.events, r)
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
	clear(t.at)
	clear(t.putAt)
	t.planAt, t.usageAt = -1, -1
	t.mu.Unlock()
	for _, e := range evs {
		if r, ok := e.(*acpRun); ok {
			if r.thought {
				e = ThoughtDelta{r.b.String()}
			} else {
				e = TextDelta{r.b.String()}
			}
		}
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
		tool := message.Tool{CallID: string(tc.ToolCallId), Kind: string(tc.Kind), Title: tc.Title, Status: string(tc.Status),
			Locations: acpLocations(tc.Locations), RawInput: acpRaw(tc.RawInput), RawOutput: acpRaw(tc.RawOutput)}
		if tc.Content != nil { // an empty list is content too (it replaces)
			tool.Content = append([]message.ToolContent{}, acpToolContent(tc.Content)...)
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
		t.push(acpUsage(*u.UsageUpdate))
	}
}

// acpChange is one change of a tool call, from a tool_call (Start), a
// tool_call_update, chipchat's own write, or a permission request.
type acpChange struct {
	ID                  string
	Start               bool // a tool_call: a pending status does not undo a known call's progress
	Kind, Title, Status *string
	Locations           []message.Location
	RawInput, RawOutput json.RawMessage
	Content             []message.ToolContent
	HasContent          bool
}

// acpStrPtr is *p as a plain string, nil for nil.
func acpStrPtr[T ~string](p *T) *string {
	if p == nil {
		return nil
	}
	s := string(*p)
	return &s
}

// startTool records a call chipchat or the agent starts (a known call is
// updated with tool's fields instead); t.mu must be held.
func (t *acpTurn) startTool(tool message.Tool) {
	ch := acpChange{ID: tool.CallID, Start: true, Locations: tool.Locations, RawInput: tool.RawInput, RawOutput: tool.RawOutput}
	if tool.Kind != "" {
		ch.Kind = &tool.Kind
	}
	if tool.Title != "" {
		ch.Title = &tool.Title
	}
	if tool.Status == "" {
		tool.Status = message.ToolPending
	}
	ch.Status = &tool.Status
	if tool.Content != nil {
		ch.Content, ch.HasContent = tool.Content, true
	}
	t.change(ch)
}

// updateTool applies a tool_call_update (a call this turn has not seen
// starts with it); t.mu must be held.
func (t *acpTurn) updateTool(tu acp.ToolCallUpdate) {
	ch := acpChange{ID: string(tu.ToolCallId), Kind: acpStrPtr(tu.Kind), Title: tu.Title, Status: acpStrPtr(tu.Status),
		Locations: acpLocations(tu.Locations), RawInput: acpRaw(tu.RawInput), RawOutput: acpRaw(tu.RawOutput)}
	if tu.Content != nil {
		ch.Content, ch.HasContent = acpToolContent(tu.Content), true
	}
	t.change(ch)
}

// change applies ch to its call and queues the ToolCall (a new call) or
// the ToolUpdate; t.mu must be held.
func (t *acpTurn) change(ch acpChange) {
	tool, call := t.tools[ch.ID], t.calls[ch.ID]
	isNew := tool == nil
	if isNew {
		tool, call = &message.Tool{CallID: ch.ID, Status: message.ToolPending}, &acpCall{id: ch.ID}
		t.tools[ch.ID], t.calls[ch.ID] = tool, call
		t.order = append(t.order, ch.ID)
	}
	ev := ToolUpdate{CallID: ch.ID}
	if ch.Kind != nil && *ch.Kind != "" {
		ev.Kind = ch.Kind
	}
	if ch.Title != nil && (*ch.Title != "" || !ch.Start) {
		ev.Title = ch.Title
	}
	if ch.Status != nil && *ch.Status != "" && (isNew || !ch.Start || *ch.Status != message.ToolPending) {
		ev.Status = ch.Status
	}
	ev.Locations = ch.Locations
	if ch.RawInput != nil {
		ev.RawInput = acpCapRaw(ch.RawInput, t.limit)
	}
	status := tool.Status
	if ev.Status != nil {
		status = *ev.Status
	}
	if status != message.ToolPending {
		call.started = true
	}
	content := false
	if ch.HasContent {
		t.linkTerminals(ch.ID, ch.Content)
		if call.started {
			call.post = ch.Content
			if call.post == nil {
				call.post = []message.ToolContent{}
			}
		} else {
			call.pre = acpKeep(call.pre, ch.Content)
		}
		content = true
	}
	if ch.RawOutput != nil {
		call.rawText = ToolOutputText(ch.RawOutput)
		ev.RawOutput = acpCapRaw(ch.RawOutput, t.limit)
		content = true
	}
	if ch.RawInput != nil || ch.RawOutput != nil || ch.Locations != nil {
		rawIn, rawOut := tool.RawInput, tool.RawOutput
		if ev.RawInput != nil {
			rawIn = ev.RawInput
		}
		if ev.RawOutput != nil {
			rawOut = ev.RawOutput
		}
		had := len(call.hunks) > 0 || len(call.locs) > 0
		call.hunks = append(acpHunks(rawIn), acpHunks(rawOut)...)
		if ch.Locations != nil {
			call.locs = ch.Locations
		}
		if (had || len(call.hunks) > 0 || len(call.locs) > 0) && (len(call.pre) > 0 || len(call.post) > 0) {
			content = true // the diffs' line numbers may change
		}
	}
	if content {
		ev.Content = t.compose(call)
	}
	message.ToolUpdate(ev).Apply(tool)
	switch {
	case isNew:
		t.push(ToolCall{Tool: acpCopyTool(*tool)})
	case !message.ToolUpdate(ev).Empty():
		t.push(ev)
	}
}

// acpKeep is the diffs and terminals kept from before a call started:
// those of cs replace the ones of the same file or terminal.
func acpKeep(kept, cs []message.ToolContent) []message.ToolContent {
	out := append([]message.ToolContent(nil), kept...)
	for _, c := range cs {
		if c.Type != message.ContentDiff && c.Type != message.ContentTerminal {
			continue
		}
		i := slices.IndexFunc(out, func(k message.ToolContent) bool { return acpSameTarget(k, c) })
		if i >= 0 {
			out[i] = c
		} else {
			out = append(out, c)
		}
	}
	return out
}

func acpSameTarget(a, b message.ToolContent) bool {
	if a.Type != b.Type {
		return false
	}
	if a.Type == message.ContentDiff {
		return a.Path == b.Path
	}
	return a.TerminalID == b.TerminalID
}

// compose is the call's content as its item shows it: the kept diffs and
// terminals not sent again since, then the output (else the rawOutput's
// text), cut to limit.
func (c *acpCall) compose(limit int64, id string, found map[acpSnip]int) []message.ToolContent {
	out := []message.ToolContent{}
	for _, k := range c.pre {
		if !slices.ContainsFunc(c.post, func(p message.ToolContent) bool { return acpSameTarget(k, p) }) {
			out = append(out, k)
		}
	}
	out = append(out, c.post...)
	if len(c.post) == 0 && c.rawText != "" {
		out = append(out, message.ToolContent{Type: message.ContentText, Text: c.rawText})
	}
	acpNumber(out, c.hunks, c.locs, id, found)
	out, _ = CapToolContent(out, limit)
	return out
}

// compose is call.compose with each terminal's state as this turn last
// saw it; t.mu must be held.
func (t *acpTurn) compose(call *acpCall) []message.ToolContent {
	out := call.compose(t.limit, call.id, t.found)
	for i, c := range out {
		if c.Type != message.ContentTerminal {
			continue
		}
		if tt := t.terms[c.TerminalID]; tt != nil {
			st := tt.state
			out[i].Terminal = &st
		}
	}
	return out
}

// recompose queues the call's content as it now stands; t.mu must be
// held.
func (t *acpTurn) recompose(id string, status *string) {
	tool, call := t.tools[id], t.calls[id]
	if tool == nil {
		return
	}
	ev := ToolUpdate{CallID: id, Content: t.compose(call), Status: status}
	message.ToolUpdate(ev).Apply(tool)
	t.push(ev)
}

// write shows chipchat's write of path (what the agent sent) in the
// running call it belongs to: the latest unfinished call of the turn whose
// locations or diffs name that file takes the write's diff (one item per
// edit). It reports false when no call does; t.mu must be held.
func (t *acpTurn) write(path string, diff message.ToolContent) bool {
	p := filepath.Clean(path)
	same := func(q string) bool { return q != "" && filepath.Clean(q) == p }
	for i := len(t.order) - 1; i >= 0; i-- {
		id := t.order[i]
		tool, call := t.tools[id], t.calls[id]
		if tool == nil || message.ToolFinal(tool.Status) {
			continue
		}
		hit := slices.ContainsFunc(tool.Locations, func(l message.Location) bool { return same(l.Path) })
		for _, cs := range [][]message.ToolContent{tool.Content, call.pre, call.post} {
			hit = hit || slices.ContainsFunc(cs, func(c message.ToolContent) bool { return c.Type == message.ContentDiff && same(c.Path) })
		}
		if !hit {
			continue
		}
		call.pre = acpKeep(call.pre, []message.ToolContent{diff})
		t.recompose(id, nil)
		return true
	}
	return false
}

// permission applies what a permission request tells of its call: a new
// call starts from it; a known one takes its diffs and locations, and its
// title, kind and raw input where it has none. Its text blocks are not
// the call's output. It returns the call as the prompt shows it: the
// item, with the request's own fields over it. t.mu must be held.
func (t *acpTurn) permission(tc acp.ToolCallUpdate) message.Tool {
	id := string(tc.ToolCallId)
	reqContent := acpToolContent(tc.Content)
	ch := acpChange{ID: id, Locations: acpLocations(tc.Locations)}
	var diffs []message.ToolContent
	for _, c := range reqContent {
		if c.Type == message.ContentDiff {
			diffs = append(diffs, c)
		}
	}
	old := t.tools[id]
	fill := func(have string, v *string) *string {
		if v == nil || *v == "" || old != nil && have != "" {
			return nil
		}
		return v
	}
	kind := acpStrPtr(tc.Kind)
	if old == nil {
		ch.Kind, ch.Title, ch.Status = kind, tc.Title, acpStrPtr(tc.Status)
		ch.RawInput = acpRaw(tc.RawInput)
	} else {
		ch.Kind = fill(old.Kind, kind)
		if old.Kind == "other" && kind != nil && *kind != "" {
			ch.Kind = kind
		}
		ch.Title = fill(old.Title, tc.Title)
		if raw := acpRaw(tc.RawInput); raw != nil && acpEmptyRaw(old.RawInput) {
			ch.RawInput = raw
		}
	}
	t.change(ch)
	call := t.calls[id]
	if len(diffs) > 0 {
		call.pre = acpKeep(call.pre, diffs)
		ev := ToolUpdate{CallID: id, Content: t.compose(call)}
		message.ToolUpdate(ev).Apply(t.tools[id])
		t.push(ev)
	}
	prompt := acpCopyTool(*t.tools[id])
	if tc.Title != nil && *tc.Title != "" {
		prompt.Title = *tc.Title
	}
	if kind != nil && *kind != "" {
		prompt.Kind = *kind
	}
	if raw := acpRaw(tc.RawInput); raw != nil && !acpEmptyRaw(raw) {
		prompt.RawInput = acpCapRaw(raw, t.limit)
	}
	if tc.Locations != nil {
		prompt.Locations = acpLocations(tc.Locations)
	}
	if len(reqContent) > 0 {
		prompt.Content, _ = CapToolContent(reqContent, t.limit)
		acpNumber(prompt.Content, append(acpHunks(acpRaw(tc.RawInput)), call.hunks...), prompt.Locations, id, t.found)
	}
	return prompt
}

// acpEmptyRaw reports whether a raw input says nothing (absent, null, {}).
func acpEmptyRaw(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s == "" || s == "null" || s == "{}"
}

// acpCapRaw is raw, or when it is over limit bytes a JSON string of its
// head and tail.
func acpCapRaw(raw json.RawMessage, limit int64) json.RawMessage {
	if int64(len(raw)) <= max(limit, 0) || limit <= 0 {
		return raw
	}
	b, err := message.MarshalJSON(CutMiddle(string(raw), limit-64))
	if err != nil {
		return nil
	}
	return b
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

// acpRaw is v (a raw input or output the SDK decoded) as JSON again, with
// <, > and & literal (message.MarshalJSON).
func acpRaw(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	b, err := message.MarshalJSON(v)
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
type acpClient struct {
	a     *ACP
	lines *acpReader // the reader of the agent's stdout (nil in unit tests)
	// On a Host: the helper serving fs (and terminals) there, or why
	// there is none.
	helper   *helperClient
	noHelper string
}

var (
	_ acp.Client                 = (*acpClient)(nil)
	_ acp.ExtensionMethodHandler = (*acpClient)(nil)
)

// HandleExtensionMethod takes the line reader's marks (acp_lines.go) and
// the elicitations it renamed (acp_elicit.go); every other extension method is unknown.
func (c *acpClient) HandleExtensionMethod(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch {
	case method == acpMarkMethod && c.lines != nil:
		c.lines.applyMark(params)
		return nil, nil
	case method == acpElicitMethod:
		return c.elicit(ctx, params)
	case method == acpElicitDoneMethod:
		c.elicitDone(params)
		return nil, nil
	}
	return nil, acp.NewMethodNotFound(method)
}

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
		} else {
			a.betweenTurns(sid)
		}
	case loading:
		if dropped != nil {
			dropped(sid)
		}
	case t != nil:
		if id, cs := acpUpdateDiffs(n.Update); len(cs) > 0 {
			c.locateDiffs(n.SessionId, t, id, cs)
		}
		t.update(n.Update)
	}
	return nil
}

// acpUpdateDiffs is the call and diffs a tool_call or tool_call_update
// carries.
func acpUpdateDiffs(u acp.SessionUpdate) (string, []message.ToolContent) {
	var id string
	var cs []acp.ToolCallContent
	switch {
	case u.ToolCall != nil:
		id, cs = string(u.ToolCall.ToolCallId), u.ToolCall.Content
	case u.ToolCallUpdate != nil:
		id, cs = string(u.ToolCallUpdate.ToolCallId), u.ToolCallUpdate.Content
	}
	for _, c := range cs {
		if c.Diff != nil {
			return id, acpToolContent(cs)
		}
	}
	return "", nil
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
	c.locateDiffs(p.SessionId, t, string(p.ToolCall.ToolCallId), acpToolContent(p.ToolCall.Content))
	t.mu.Lock()
	tool := t.permission(p.ToolCall)
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

package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/fragment"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// turn is one running turn: the reply's items as they fold from the
// backend's events, and what of them is on disk. Its fields are guarded by
// the service's mu, except flushMu, which orders the writes.
type turn struct {
	s      *Service
	th     *thread
	user   store.Message
	reply  store.Message
	ctx    context.Context
	cancel context.CancelFunc
	lease  *store.Lease

	stopping bool // cancelled (by the user or a quit)
	finished bool // recorded; later events are dropped

	items     []message.Item
	texts     []*message.TextBuf // the growing text of each text/thought/notice item
	persisted []int              // bytes of each item's text on disk
	dirty     map[int]bool       // items whose kind or fields changed since the last write
	open      int                // the growing item new text goes to, or -1
	tools     map[string]int     // tool call id → position
	rejected  map[string]bool    // tool call ids whose permission the user rejected
	plan      int                // the plan's position, or -1
	puts      map[putKey]int     // the position of each item put (agent.ItemPut)
	seq       int                // numbers item ids
	armed     bool               // a flush is scheduled
	writeErr  bool               // a write failed (said once)

	flushMu sync.Mutex

	replying time.Time // the first update of the reply (replyingAt); zero while the agent starts
}

// startTurn creates the reply and runs the backend; s.mu must be held.
func (s *Service) startTurn(th *thread, user store.Message) {
	ctx, cancel := context.WithCancel(context.Background())
	t := &turn{s: s, th: th, user: user, ctx: ctx, cancel: cancel, dirty: map[int]bool{}, open: -1,
		tools: map[string]int{}, plan: -1, puts: map[putKey]int{}}
	th.turn = t
	th.retry = nil
	th.paused = false
	s.setPhase(th, Starting)
	s.do(func() { s.prepare(t) })
}

// prepare creates the reply, takes its lease and builds the backend's turn
// (worker), then starts the backend.
func (s *Service) prepare(t *turn) {
	th := t.th
	mode := store.TextMarkdown
	if s.caps.PlainText {
		mode = store.TextPlain // an exec: backend's output: its lines kept, also under another agent
	}
	reply, err := s.st.AddMessage(store.Message{ThreadID: th.id, Role: message.RoleAssistant, Status: message.StatusStreaming, TextMode: mode})
	if err != nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		th.turn = nil
		u := t.user
		th.retry = &u
		s.setPhase(th, Idle)
		s.emit(Notice{ThreadID: th.id, Text: "reply not started: " + err.Error() + " — alt+r retries", Err: true})
		s.maybeQuitReady()
		return
	}
	t.reply = reply
	lease, lerr := s.st.AcquireLease(reply.ID)
	t.lease = lease
	at := s.agentTurn(th.id, t.user)

	var cuts []string
	if s.caps.InlinePayload {
		cuts = agent.InlineCuts(at)
	}
	s.mu.Lock()
	s.emit(ReplyStarted{ThreadID: th.id, User: viewMessage(t.user), Reply: viewMessage(reply), Started: s.clock.Now()})
	for _, c := range cuts {
		s.emit(Notice{ThreadID: th.id, Text: c})
	}
	if lerr != nil {
		s.emit(Notice{ThreadID: th.id, Text: "this reply holds no lease (" + lerr.Error() + "): another chipchat may mark it interrupted", Err: true})
	}
	if s.quitting || t.stopping {
		t.stopping = true // recorded interrupted: alt+r asks again after a restart
		s.mu.Unlock()
		s.finish(t, context.Canceled, false)
		return
	}
	s.setPhase(th, Streaming)
	s.mu.Unlock()

	backend := s.opt.Backend
	go func() {
		var err error
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("agent %s panicked: %v", backend.Name(), p)
			}
			s.finish(t, err, false)
		}()
		err = backend.Run(t.ctx, at, t.event)
	}()
}

// agentTurn is what the backend gets for a user message: the projection,
// the attachments, and — as the backend's capabilities ask — the thread's
// history and its agent session. It reads the store (worker).
func (s *Service) agentTurn(threadID string, user store.Message) agent.Turn {
	ctx := user.Context
	if ctx == nil && user.RawContext != nil {
		ctx, _, _ = contextref.DecodeContext(user.RawContext)
	}
	text, recs := resolveContext(user.Text, ctx)
	var snaps map[string]map[string]store.MentionSnapshot
	if s.caps.InlinePayload {
		snaps, _ = s.st.ThreadMentionSnapshots(threadID)
	}
	at := agent.PrepareWith(text, recs, s.resolver(snaps[user.ID]))
	at.ThreadID, at.Dir, at.Limits = threadID, s.opt.Dir, s.opt.Limits
	at.Threads = s.threadContexts(text, recs)
	if s.caps.History {
		at.History = s.history(threadID, user.ID, snaps)
		at.Compact = s.caps.Compact && IsCompact(user.Text)
	}
	if s.caps.Sessions {
		if id, ok, err := s.st.AgentSession(threadID, s.opt.Backend.Name()); err == nil && ok {
			at.SessionID = id
		}
		// Without a session (a fork from an earlier message, a thread
		// begun with another agent) the new session takes the history.
		at.Handover = s.handover(threadID, user.ID)
	}
	return at
}

// resolveContext is the text and records a user message is read from
// (DESIGN.md 5): structured context as is, else the legacy upgrade.
func resolveContext(text string, ctx *contextref.MessageContext) (string, []contextref.Record) {
	if ctx != nil {
		return text, ctx.Records
	}
	return contextref.UpgradeLegacy(text)
}

// IsCompact reports whether a message is the /compact command.
func IsCompact(text string) bool { return strings.TrimSpace(text) == agent.CompactCommand }

// history is the thread's conversation before the message upTo, as a
// harness backend sends it: user messages projected (legacy ones upgraded
// in memory) with their attachments, mention snapshots and skills; replies
// as their text, an interrupted one marked (even when empty); after a
// /compact, the user's words and the summary replace what came before.
// Queued messages are not part of it. It reads the store (worker).
func (s *Service) history(threadID, upTo string, snaps map[string]map[string]store.MentionSnapshot) []agent.HistoryMessage {
	msgs, err := s.st.Messages(threadID)
	if err != nil {
		return nil
	}
	var out []agent.HistoryMessage
	compacting := false
	for _, m := range msgs {
		if m.ID == upTo {
			break
		}
		if m.Status == message.StatusQueued {
			continue
		}
		reply := message.ReplyText(m.Items)
		if compacting && m.Role == message.RoleAssistant && m.Status == message.StatusDone && strings.TrimSpace(reply) != "" {
			var kept []agent.HistoryMessage
			for _, h := range out {
				if h.Role == "user" {
					kept = append(kept, h)
				}
			}
			out = append(kept, agent.HistoryMessage{Role: "user", Text: fragment.Render(fragment.ConversationSummary{Text: reply})})
			compacting = false
			continue
		}
		compacting = false
		if m.Role == message.RoleUser && IsCompact(m.Text) {
			compacting = true
			continue
		}
		switch m.Role {
		case message.RoleUser:
			text, recs := resolveContext(m.Text, m.Context)
			out = append(out, agent.PrepareWith(text, recs, s.resolver(snaps[m.ID])).UserMessage())
		case message.RoleAssistant:
			interrupted := m.Status == message.StatusInterrupted
			if reply != "" || interrupted {
				out = append(out, agent.HistoryMessage{Role: "assistant", Text: reply, Interrupted: interrupted})
			}
		}
	}
	return out
}

// event folds one backend event into the reply (the backend's goroutine).
func (t *turn) event(ev agent.Event) {
	s := t.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.finished {
		return
	}
	t.replyingAt(ev)
	switch e := ev.(type) {
	case agent.TextDelta:
		t.grow(message.ItemText, e.Text)
	case agent.ThoughtDelta:
		t.grow(message.ItemThought, e.Text)
	case agent.ToolCall:
		t.open = -1
		t.putTool(e.Tool)
	case agent.ToolUpdate:
		tool := message.Tool{CallID: e.CallID}
		if pos, ok := t.tools[e.CallID]; ok {
			tool = *t.items[pos].Tool
		}
		message.ToolUpdate(e).Apply(&tool)
		t.putTool(tool)
	case agent.Plan:
		entries := append([]message.PlanEntry(nil), e.Entries...)
		if t.plan >= 0 {
			it := t.items[t.plan]
			it.Plan = entries
			t.set(t.plan, it)
			return
		}
		t.open = -1
		t.plan = t.add(message.Item{Kind: message.ItemPlan, Plan: entries})
	case agent.ItemPut:
		t.putItem(e)
	case agent.Permission:
		req := e.Request
		req.Chosen, req.Outcome = "", ""
		pos := t.askIn(req)
		s.askSeq++
		s.asks[s.askSeq] = &ask{threadID: t.th.id, turn: t, pos: pos, permission: e.Reply, request: req}
		s.emit(PermissionAsked{ThreadID: t.th.id, ReplyID: t.reply.ID, ID: s.askSeq, Request: req, Tool: e.Tool})
	case agent.SignIn:
		s.askSeq++
		s.asks[s.askSeq] = &ask{threadID: t.th.id, turn: t, pos: -1, signIn: e.Reply}
		s.emit(SignInAsked{ThreadID: t.th.id, ID: s.askSeq, Question: viewQuestion(e.Question)})
	case agent.SessionStarted:
		id, th, name := e.ID, t.th.id, s.opt.Backend.Name()
		s.do(func() {
			if err := s.st.SetAgentSession(th, name, id); err != nil {
				s.mu.Lock()
				s.emit(Notice{ThreadID: th, Text: "the agent's session was not saved (it will not resume): " + err.Error(), Err: true})
				s.mu.Unlock()
			}
		})
	case agent.Elicitation, agent.ElicitationDone:
		s.elicited(t, e)
	case agent.SessionTitle:
		s.agentTitle(t.th.id, e.Title)
	case agent.Commands, agent.Modes, agent.ConfigOptions, agent.Usage:
		if c, ok := e.(agent.Commands); ok {
			s.advertised(c)
		}
		t.th.info.fold(e)
		s.emit(AgentInfo{ThreadID: t.th.id, Info: t.th.info})
	case agent.Notice:
		t.open = -1
		t.add(message.Item{Kind: message.ItemNotice, Text: e.Text})
	}
}

// askIn puts a permission question in the reply: in its call's item when
// the reply has it (the answer is drawn there, above the call's output),
// else as an item of its own. It returns the item's position. s.mu must
// be held.
func (t *turn) askIn(req message.Permission) int {
	if pos, ok := t.tools[req.ToolCallID]; ok && req.ToolCallID != "" {
		it := t.items[pos]
		tool := *it.Tool
		tool.Permission = &req
		it.Tool = &tool
		t.set(pos, it)
		return pos
	}
	t.open = -1
	return t.add(message.Item{Kind: message.ItemPermission, Permission: &req})
}

// replyingAt notes the turn's first update of the reply (text, thought,
// a call, a plan, an item, a question): until it, the agent is starting
// (its process, initialize, its session) and the header says so; then it
// replies (Replying). s.mu must be held.
func (t *turn) replyingAt(ev agent.Event) {
	if !t.replying.IsZero() {
		return
	}
	switch ev.(type) {
	case agent.TextDelta, agent.ThoughtDelta, agent.ToolCall, agent.ToolUpdate, agent.Plan, agent.ItemPut, agent.Permission:
	default:
		return
	}
	t.replying = t.s.clock.Now()
	t.s.emit(Replying{ThreadID: t.th.id, ReplyID: t.reply.ID, Since: t.replying})
}

// putKey is the item an agent.ItemPut changes.
type putKey struct {
	kind message.ItemKind
	key  string
}

// putItem adds the item of an ItemPut, or gives the item put before with
// its kind and key its fields. A put of an unknown kind is dropped (the
// store would refuse the reply's writes). s.mu must be held.
func (t *turn) putItem(e agent.ItemPut) {
	if !e.Item.Kind.Valid() {
		return
	}
	k := putKey{e.Item.Kind, e.Key}
	if pos, ok := t.puts[k]; ok {
		t.set(pos, e.Item)
		return
	}
	t.open = -1
	t.puts[k] = t.add(e.Item)
}

func final(status string) bool { return message.ToolFinal(status) }

// putTool folds a call's new state into the reply, a new item for a call
// not seen yet: its content cut to [limits] reply_bytes (in memory and in
// the store), its start and end stamped, and a call whose permission the
// user rejected kept cancelled unless the agent ends it. s.mu must be held.
func (t *turn) putTool(tool message.Tool) {
	now := t.s.clock.Now()
	agent.CapTool(&tool, t.s.opt.Limits.ReplyBytes)
	if tool.Started.IsZero() {
		tool.Started = now
	}
	pos, ok := t.tools[tool.CallID]
	if t.rejected[tool.CallID] {
		at := now
		if ok && !t.items[pos].Tool.Ended.IsZero() {
			at = t.items[pos].Tool.Ended
		}
		tool.Settle(true, "", at)
	}
	if final(tool.Status) && tool.Ended.IsZero() {
		tool.Ended = now
	}
	if !ok {
		t.open = -1
		t.tools[tool.CallID] = t.add(message.Item{Kind: message.ItemTool, Tool: &tool})
		return
	}
	it := t.items[pos]
	if tool.Permission == nil {
		tool.Permission = it.Tool.Permission // the agent's calls never carry it
	}
	it.Tool = &tool
	t.set(pos, it)
}

// reject settles the call whose permission the user rejected as
// cancelled (the agent may go on without ever ending it); a call not seen
// yet is settled so when it comes, or at the end of the turn. s.mu must be
// held.
func (t *turn) reject(callID string) {
	if t.finished || callID == "" {
		return
	}
	if t.rejected == nil {
		t.rejected = map[string]bool{}
	}
	t.rejected[callID] = true
	if pos, ok := t.tools[callID]; ok {
		it := t.items[pos]
		tool := *it.Tool
		if tool.Settle(true, "", t.s.clock.Now()) {
			it.Tool = &tool
			t.set(pos, it)
		}
	}
}

// settle ends every call of the turn still pending or running: cancelled
// when the user cancelled the turn or rejected the call, else failed with
// reason. s.mu must be held.
func (t *turn) settle(cancelled bool, reason string) {
	now := t.s.clock.Now()
	for pos, it := range t.items {
		if it.Kind != message.ItemTool || it.Tool == nil {
			continue
		}
		tool := *it.Tool
		if tool.Settle(cancelled || t.rejected[tool.CallID], reason, now) {
			it.Tool = &tool
			t.set(pos, it)
		}
	}
}

// SettleTools settles, in msgs as read from the store, the calls of the
// replies that are over but were left pending or running (written by a
// chipchat that did not settle them, or that died mid-turn): failed, not
// finished when the turn ended. Streaming replies are left as they are.
func SettleTools(msgs []store.Message) {
	for i := range msgs {
		m := &msgs[i]
		if m.Role != message.RoleAssistant || !m.Status.Final() {
			continue
		}
		for j, it := range m.Items {
			if it.Kind != message.ItemTool || it.Tool == nil || final(it.Tool.Status) {
				continue
			}
			tool := *it.Tool
			tool.Settle(false, message.ReasonTurnEnded, tool.Ended)
			m.Items[j].Tool = &tool
		}
	}
}

// grow appends text to the open item of kind k, or opens a new one (which
// closes the item before it: a status line never lands inside a sentence).
func (t *turn) grow(k message.ItemKind, text string) {
	if text == "" {
		return
	}
	if t.open < 0 || t.items[t.open].Kind != k {
		t.open = t.add(message.Item{Kind: k})
	}
	b := t.texts[t.open]
	b.Append(text)
	it := t.items[t.open]
	it.Text, it.Chunks = textOf(b)
	t.items[t.open] = it
	t.s.emit(ItemChanged{ThreadID: t.th.id, ReplyID: t.reply.ID, Index: t.open, Item: it})
	t.schedule()
}

// textOf is b's text as an item holds it: in Text while it is one
// string, in Chunks once it is kept in pieces.
func textOf(b *message.TextBuf) (string, message.Text) {
	if b.Len() <= message.TextPiece {
		return b.String(), message.Text{}
	}
	return "", b.Text()
}

// add appends an item and returns its position.
func (t *turn) add(it message.Item) int {
	t.seq++
	it.ID = fmt.Sprintf("item_%d", t.seq)
	pos := len(t.items)
	t.items = append(t.items, it)
	b := &message.TextBuf{}
	b.Append(it.Text)
	t.texts = append(t.texts, b)
	t.persisted = append(t.persisted, 0)
	t.dirty[pos] = true
	t.s.emit(ItemChanged{ThreadID: t.th.id, ReplyID: t.reply.ID, Index: pos, Item: it})
	t.schedule()
	return pos
}

// set replaces the fields of the item at pos (its text stays the item's).
func (t *turn) set(pos int, it message.Item) {
	it.ID, it.Kind, it.Text, it.Chunks = t.items[pos].ID, t.items[pos].Kind, t.items[pos].Text, t.items[pos].Chunks
	t.items[pos] = it
	t.dirty[pos] = true
	t.s.emit(ItemChanged{ThreadID: t.th.id, ReplyID: t.reply.ID, Index: pos, Item: it})
	t.schedule()
}

// schedule arms a flush FlushEvery from now, unless one is armed: the
// first change after a write is on disk within FlushEvery however fast
// changes come.
func (t *turn) schedule() {
	if t.armed || t.finished {
		return
	}
	t.armed = true
	t.s.clock.AfterFunc(t.s.opt.FlushEvery, t.flush)
}

// pending collects the writes not yet on disk; s.mu must be held.
func (t *turn) pending() []store.ItemWrite {
	var ws []store.ItemWrite
	for pos := range t.items {
		w := store.ItemWrite{Pos: pos}
		if t.dirty[pos] {
			w.Item, w.Meta = t.items[pos], true
		}
		// The new text goes piece by piece, each a view of the item's
		// text (one write each, in order: the store appends them).
		body := t.items[pos].Body()
		from := t.persisted[pos]
		t.persisted[pos] = body.Len()
		for p := range body.Pieces(from) {
			w.Append = p
			ws = append(ws, w)
			w = store.ItemWrite{Pos: pos}
		}
		if w.Meta {
			ws = append(ws, w)
		}
	}
	clear(t.dirty)
	return ws
}

// flush writes what is pending (a timer's goroutine).
func (t *turn) flush() {
	t.flushMu.Lock()
	defer t.flushMu.Unlock()
	s := t.s
	s.mu.Lock()
	t.armed = false
	if t.finished {
		s.mu.Unlock()
		return
	}
	ws := t.pending()
	s.mu.Unlock()
	if len(ws) == 0 {
		return
	}
	if err := s.st.WriteReply(t.reply.ID, ws, ""); err != nil {
		s.mu.Lock()
		if !t.writeErr {
			t.writeErr = true
			s.emit(Notice{ThreadID: t.th.id, Text: "reply not saved: " + err.Error(), Err: true})
		}
		s.mu.Unlock()
	}
}

// finish records the end of the turn once: its status, an error notice
// item, the last writes; then the thread is idle and the queue moves on (a
// done turn sends the next queued message; any other end pauses the
// queue). forced: the backend did not return within StopWait.
func (s *Service) finish(t *turn, err error, forced bool) {
	s.mu.Lock()
	if t.finished || t.reply.ID == "" && !forced && err == nil {
		s.mu.Unlock()
		return
	}
	// Questions still open are answered cancelled (and their items
	// written with the rest).
	for id, a := range s.asks {
		if a.turn == t {
			s.closeAsk(id, a, agent.PermissionAnswer{Outcome: "cancelled"})
		}
	}
	status := message.StatusDone
	reason := message.ReasonTurnEnded
	var ae *agent.Error
	if errors.As(err, &ae) {
		reason = message.ReasonAgentDied
	}
	switch {
	case t.stopping || errors.Is(err, context.Canceled) && t.ctx.Err() != nil:
		status = message.StatusInterrupted
		t.settle(true, "")
	case err != nil:
		t.settle(false, reason)
		status = message.StatusError
		it := message.Item{Kind: message.ItemNotice, Level: "error", Text: strings.TrimSpace(err.Error()) + " — alt+r retries"}
		if ae != nil {
			it.StderrTail = ae.StderrTail
		}
		t.open = -1
		t.add(it)
	default:
		t.settle(false, reason)
	}
	t.finished = true
	ws := t.pending()
	th := t.th
	s.mu.Unlock()

	t.flushMu.Lock()
	var werr error
	if t.reply.ID != "" {
		werr = s.st.WriteReply(t.reply.ID, ws, status)
	}
	t.flushMu.Unlock()
	t.lease.Release()
	t.cancel()

	s.mu.Lock()
	defer s.mu.Unlock()
	if th.turn == t {
		th.turn = nil
	}
	if werr != nil {
		s.emit(Notice{ThreadID: th.id, Text: "reply not saved: " + werr.Error(), Err: true})
	}
	if status != message.StatusDone {
		u := t.user
		th.retry = &u
	}
	// The reply's end before the phase's: a listener that sees the turn
	// idle has seen how it ended (the turn-end notification is decided
	// with the focus of that moment, not of a later batch).
	s.emit(ReplyFinished{ThreadID: th.id, ReplyID: t.reply.ID, Status: status, Err: err, Ended: s.clock.Now()})
	s.setPhase(th, Idle)
	switch {
	case s.quitting:
	case status == message.StatusDone:
		th.paused = false
		if len(th.queue) > 0 {
			s.sendNext(th)
		}
	default:
		th.paused = len(th.queue) > 0
		s.queueChanged(th)
	}
	s.maybeQuitReady()
}

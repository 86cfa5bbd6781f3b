package chat

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/assets"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// Phase is where a thread's turn is (DESIGN.md section 9).
type Phase int

// Turn phases, in the order a turn goes through them.
const (
	Idle      Phase = iota
	Storing         // the user's message is being written
	Starting        // the reply is being created and the turn prepared
	Streaming       // the backend runs
	Stopping        // cancelled or quitting: waiting for the backend to end
)

func (p Phase) String() string {
	return [...]string{"idle", "storing", "starting", "streaming", "stopping"}[p]
}

// Options configure a Service.
type Options struct {
	Store   *store.Store
	Assets  *assets.Store
	Backend agent.Backend
	// ProjectID is the project the threads belong to (forks go there).
	ProjectID int64
	// Dir is the project directory the agent works in.
	Dir string
	// Clock is nil for the real one.
	Clock Clock
	// ExcerptMaxAge drops older terminal excerpts at send; 0 keeps all.
	ExcerptMaxAge time.Duration
	// FlushEvery bounds how long a growing item's new text waits before it
	// is appended on disk; 0 means 300 ms.
	FlushEvery time.Duration
	// StopWait bounds how long a cancelled or quitting turn waits for its
	// backend to return before it is recorded as interrupted anyway; 0
	// means 3 s.
	StopWait time.Duration
	// Limits bound the payload the harness backends put inline ([limits]
	// inline_file_bytes, inline_turn_bytes, history_bytes,
	// thread_context_bytes; zero fields are the defaults), and what a new
	// agent session gets of the thread when the old one cannot be resumed
	// (resume_history_bytes).
	Limits agent.Limits
	// PrepareRecords, when set, sees a submission's records before the
	// message is built, on the store worker (it may read files), and
	// returns the records to send; it must not change the records it is
	// given (the draft still holds them), only replace them. The UI marks
	// review comments stale there (review.MarkStale, DESIGN.md 3.5).
	PrepareRecords func([]contextref.Record) []contextref.Record
	// EventEvery paces Wait (pace.go): after it returns, the next call
	// waits until EventEvery has passed before it takes the outbox, so
	// the app draws at most one frame per interval however fast a reply
	// streams (its item changes are merged meanwhile). 0: no pacing.
	EventEvery time.Duration
	// Snapshot reads an @ mention at send for the harness backends
	// (agent.SnapshotMention of Dir here when nil; a remote project's
	// reads it there).
	Snapshot func(dir, mentioned string, l agent.Limits) (agent.MentionSnapshot, error)
}

// Submission is a draft the user sent: canonical Markdown and its records.
// Ref is the UI's (the draft's version), handed back in UserStored and
// SendFailed.
type Submission struct {
	Markdown string
	Records  []contextref.Record
	Ref      uint64
}

// Service is the conversation (DESIGN.md section 9): it stores what the
// user sends, runs turns on the backend, folds the backend's events into
// reply items, persists them and reports everything as Events. Its methods
// never block on I/O: the work happens in goroutines, in order per
// service, and its results arrive as events (Wait). It is safe for
// concurrent use.
type Service struct {
	opt   Options
	st    *store.Store
	clock Clock
	caps  agent.Capabilities

	ops chan func() // store work, one at a time, in order

	mu       sync.Mutex
	threads  map[string]*thread
	outbox   []Event
	wake     chan struct{} // cap 1: the outbox has something
	asks     map[int64]*ask
	askSeq   int64
	quitting bool
	waited   time.Time // when Wait last returned events (pace.go)
	opsBusy  int       // queued or running ops
	quitSent bool
	quitDone chan struct{} // closed with QuitReady
	closed   chan struct{}

	// known is the agent's slash commands as last known (commands.go):
	// knownSet once loaded or advertised, knownLive once advertised in
	// this run.
	known               []Command
	knownSet, knownLive bool
}

type thread struct {
	id     string
	phase  Phase
	turn   *turn
	queue  []store.Message
	paused bool
	retry  *store.Message // the message alt+r asks again
	info   Info
	// storing holds the Refs of submissions being written: until one is
	// stored, the draft it came from is the user's only copy.
	storing []uint64
	// steer holds the Refs of submissions to steer into the running turn
	// once stored (Steer).
	steer []uint64
}

type ask struct {
	threadID   string
	turn       *turn
	pos        int // the permission item, -1 for a sign-in
	permission chan<- agent.PermissionAnswer
	signIn     chan<- agent.Answer
	elicit     chan<- agent.ElicitAnswer // an elicitation (elicit.go)
	request    message.Permission
}

// New starts a service. Close it when done.
func New(opt Options) *Service {
	if opt.Clock == nil {
		opt.Clock = realClock{}
	}
	if opt.FlushEvery <= 0 {
		opt.FlushEvery = 300 * time.Millisecond
	}
	if opt.StopWait <= 0 {
		opt.StopWait = 3 * time.Second
	}
	s := &Service{opt: opt, st: opt.Store, clock: opt.Clock, caps: opt.Backend.Capabilities(),
		ops: make(chan func(), 1024), threads: map[string]*thread{}, wake: make(chan struct{}, 1),
		asks: map[int64]*ask{}, closed: make(chan struct{}), quitDone: make(chan struct{})}
	if s.caps.Commands && s.st != nil {
		s.do(s.loadCommands)
	}
	if b, ok := opt.Backend.(agent.BetweenTurns); ok && s.st != nil {
		b.OnBetweenTurns(s.betweenTurns)
	}
	go s.worker()
	return s
}

// Close stops the service's worker. Turns still running are not waited for
// (Quit does that).
func (s *Service) Close() {
	s.mu.Lock()
	select {
	case <-s.closed:
	default:
		close(s.closed)
	}
	s.mu.Unlock()
}

// Capabilities are the backend's.
func (s *Service) Capabilities() agent.Capabilities { return s.caps }

// Backend is the service's backend.
func (s *Service) Backend() agent.Backend { return s.opt.Backend }

// AgentName is the backend's name, as the header shows it (not
// sanitized: an ACP agent reports its own).
func (s *Service) AgentName() string { return s.opt.Backend.Name() }

// CloseBackend ends the backend's process, when it has one
// (Capabilities.Process): the command's exit path, after Shutdown and
// Close. It does I/O.
func (s *Service) CloseBackend() error { return agent.Close(s.opt.Backend) }

func (s *Service) worker() {
	for {
		select {
		case f := <-s.ops:
			f()
			s.mu.Lock()
			s.opsBusy--
			s.maybeQuitReady()
			s.mu.Unlock()
		case <-s.closed:
			return
		}
	}
}

// do queues store work; s.mu must be held.
func (s *Service) do(f func()) {
	s.opsBusy++
	select {
	case s.ops <- f:
	default:
		// More than the buffer is waiting: hand it over from a goroutine,
		// keeping the caller (the UI) from blocking.
		go func() { s.ops <- f }()
	}
}

// emit queues an event; s.mu must be held. An ItemChanged replaces a
// pending one for the same item, so a slow reader gets the latest state
// once instead of every step.
func (s *Service) emit(e Event) {
	if ic, ok := e.(ItemChanged); ok && len(s.outbox) > 0 {
		if last, ok := s.outbox[len(s.outbox)-1].(ItemChanged); ok && last.ReplyID == ic.ReplyID && last.Index == ic.Index {
			s.outbox[len(s.outbox)-1] = ic
			return
		}
	}
	s.outbox = append(s.outbox, e)
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Wait blocks until there are events, then returns all of them in order;
// nil when ctx ends first.
func (s *Service) Wait(ctx context.Context) []Event {
	if !s.pace(ctx) {
		return nil
	}
	for {
		s.mu.Lock()
		if len(s.outbox) > 0 {
			out := s.outbox
			s.outbox = nil
			s.waited = s.clock.Now()
			s.mu.Unlock()
			return out
		}
		s.mu.Unlock()
		select {
		case <-s.wake:
		case <-ctx.Done():
			return nil
		}
	}
}

// thread returns the state of a thread, made on first use; s.mu must be
// held.
func (s *Service) thread(id string) *thread {
	th := s.threads[id]
	if th == nil {
		th = &thread{id: id}
		s.threads[id] = th
	}
	return th
}

func (s *Service) setPhase(th *thread, p Phase) {
	if th.phase == p {
		return
	}
	th.phase = p
	s.emit(PhaseChanged{ThreadID: th.id, Phase: p, Since: s.clock.Now()})
}

func (s *Service) queueChanged(th *thread) {
	s.emit(QueueChanged{ThreadID: th.id, Queued: viewMessages(th.queue), Paused: th.paused && len(th.queue) > 0})
}

// Phase is the thread's phase now.
func (s *Service) Phase(threadID string) Phase {
	s.mu.Lock()
	defer s.mu.Unlock()
	if th := s.threads[threadID]; th != nil {
		return th.phase
	}
	return Idle
}

// Info is what the agent advertised for the thread.
func (s *Service) Info(threadID string) Info {
	s.mu.Lock()
	defer s.mu.Unlock()
	if th := s.threads[threadID]; th != nil {
		return th.info
	}
	return Info{}
}

// Queue is the thread's queued messages and whether the queue is paused.
func (s *Service) Queue(threadID string) ([]Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	th := s.threads[threadID]
	if th == nil {
		return nil, false
	}
	return viewMessages(th.queue), th.paused && len(th.queue) > 0
}

// CanRetry reports whether alt+r has a message to ask again.
func (s *Service) CanRetry(threadID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	th := s.threads[threadID]
	return th != nil && th.phase == Idle && th.retry != nil
}

// LoadThread opens a thread's messages for display: streaming replies
// whose writer is gone become interrupted first (their items kept), and
// the calls of a reply that is over are settled (SettleTools). It
// does I/O: call it from a command, or before the UI starts.
func LoadThread(st *store.Store, threadID string) ([]store.Message, error) {
	if _, err := st.RecoverThread(threadID); err != nil {
		return nil, err
	}
	msgs, err := st.MessagesRaw(threadID)
	SettleTools(msgs)
	return msgs, err
}

// Adopt tells the service what a thread holds, as LoadThread read it: its
// queued messages (shown paused: whatever ran them is gone) and the
// message alt+r asks again (the last one, when its reply did not end
// done). A thread with a turn running here is left as it is. No I/O.
func (s *Service) Adopt(threadID string, msgs []store.Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	th := s.thread(threadID)
	if th.phase != Idle || th.turn != nil {
		return
	}
	th.queue, th.retry = nil, nil
	var lastUser *store.Message
	for i := range msgs {
		m := msgs[i]
		switch {
		case m.Role == message.RoleUser && m.Status == message.StatusQueued:
			th.queue = append(th.queue, m)
		case m.Role == message.RoleUser:
			lastUser = &msgs[i]
			th.retry = nil
		case m.Role == message.RoleAssistant && m.Status != message.StatusDone && m.Status != message.StatusStreaming && lastUser != nil:
			u := *lastUser
			th.retry = &u
		case m.Role == message.RoleAssistant:
			th.retry = nil
		}
	}
	th.paused = len(th.queue) > 0
	s.queueChanged(th)
}

// Send stores the user's message and runs a turn for it, or, while a turn
// runs (or the queue is paused), stores it queued behind. Nothing is ever
// refused because a turn is running.
func (s *Service) Send(threadID string, sub Submission) {
	s.mu.Lock()
	defer s.mu.Unlock()
	th := s.thread(threadID)
	queued := th.phase != Idle || len(th.queue) > 0
	if !queued {
		s.setPhase(th, Storing)
	}
	th.storing = append(th.storing, sub.Ref)
	s.do(func() { s.store(th, sub, queued) })
}

// Sending reports whether the submission with this Ref is still being
// written: the draft it came from must not be saved again meanwhile (the
// send clears it on disk once the message is stored).
func (s *Service) Sending(threadID string, ref uint64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	th := s.threads[threadID]
	return th != nil && slices.Contains(th.storing, ref)
}

// stored forgets a submission's Ref; s.mu must be held.
func (th *thread) stored(ref uint64) {
	if i := slices.Index(th.storing, ref); i >= 0 {
		th.storing = slices.Delete(th.storing, i, i+1)
	}
}

// store builds and writes the message (worker).
func (s *Service) store(th *thread, sub Submission, queued bool) {
	fail := func(err error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		th.stored(sub.Ref)
		s.emit(SendFailed{ThreadID: th.id, Ref: sub.Ref, Err: err})
		if !queued && th.phase == Storing {
			s.setPhase(th, Idle)
		}
	}
	if s.opt.PrepareRecords != nil {
		sub.Records = s.opt.PrepareRecords(sub.Records)
	}
	records, dropped := DropExpired(sub.Records, s.expired)
	msg, err := BuildMessage(th.id, sub.Markdown, records, func(local string) (string, bool) {
		id, ok, err := s.st.AttachmentBinding(local)
		return id, ok && err == nil
	}, s.opt.Assets.Has)
	if err != nil {
		fail(err)
		return
	}
	if queued {
		msg.Status = message.StatusQueued
	}
	var recs []contextref.Record
	if msg.Context != nil {
		recs = msg.Context.Records
	}
	snaps := s.snapshotMentions(th.id, msg.Text, recs) // before the message: what the user sent is what is resent
	user, err := s.st.AddMessage(msg)
	if err != nil {
		fail(fmt.Errorf("message not sent: %w", err))
		return
	}
	if err := s.st.AddMentionSnapshots(user.ID, snaps); err != nil {
		s.mu.Lock()
		s.emit(Notice{ThreadID: th.id, Text: "the @ mentions' contents were not saved: " + err.Error(), Err: true})
		s.mu.Unlock()
	}
	// The message is on disk: so is no longer its draft. Only a draft that
	// holds exactly the sent text is cleared (another process's draft of
	// this thread, or words typed since, stay); the UI's own save of the
	// emptied composer does the rest.
	derr := s.st.ClearSentDraft(th.id, msg.Text)
	s.mu.Lock()
	defer s.mu.Unlock()
	th.stored(sub.Ref)
	s.emit(UserStored{ThreadID: th.id, Message: viewMessage(user), Queued: queued, Ref: sub.Ref})
	if dropped > 0 {
		s.emit(Notice{ThreadID: th.id, Text: fmt.Sprintf("%d terminal excerpt(s) older than %s dropped: the agent sees them as unavailable", dropped, s.opt.ExcerptMaxAge)})
	}
	if derr != nil {
		s.emit(Notice{ThreadID: th.id, Text: "message stored, but its draft was not cleared: " + derr.Error(), Err: true})
	}
	if !queued {
		s.startTurn(th, user)
		return
	}
	if i := slices.Index(th.steer, sub.Ref); i >= 0 {
		th.steer = slices.Delete(th.steer, i, i+1)
		if th.phase == Streaming && !s.quitting {
			s.steerStored(th, user)
			return
		}
	}
	th.queue = append(th.queue, user)
	if th.phase == Idle && !s.quitting {
		// The turn ended while this was being stored, or the queue was
		// paused: the user pressed enter, so it runs again.
		th.paused = false
		s.sendNext(th)
		return
	}
	s.queueChanged(th)
}

func (s *Service) expired(r contextref.Record) bool {
	if s.opt.ExcerptMaxAge <= 0 {
		return false
	}
	at, ok, err := s.st.ExcerptCaptured(r.RecordBase().ContextID)
	return err == nil && ok && s.clock.Now().Sub(at) > s.opt.ExcerptMaxAge
}

// SendNext sends the head of a paused queue (enter on an empty composer).
// It reports whether there was one to send.
func (s *Service) SendNext(threadID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	th := s.thread(threadID)
	if th.phase != Idle || len(th.queue) == 0 || s.quitting {
		return false
	}
	th.paused = false
	s.sendNext(th)
	return true
}

// sendNext dequeues the head of the queue and starts its turn; s.mu must
// be held and the thread idle.
func (s *Service) sendNext(th *thread) {
	next := th.queue[0]
	th.queue = th.queue[1:]
	s.setPhase(th, Storing)
	s.queueChanged(th)
	s.do(func() {
		sent, err := s.st.Dequeue(next.ID)
		s.mu.Lock()
		defer s.mu.Unlock()
		if err != nil {
			s.setPhase(th, Idle)
			if !errors.Is(err, store.ErrNotFound) {
				th.queue = append([]store.Message{next}, th.queue...)
				th.paused = true
				s.queueChanged(th)
			}
			s.emit(Notice{ThreadID: th.id, Text: "queued message not sent: " + err.Error(), Err: true})
			return
		}
		s.emit(UserStored{ThreadID: th.id, Message: viewMessage(sent)})
		s.startTurn(th, sent)
	})
}

// Unqueue takes the last queued message back (alt+up): it is deleted from
// the store and handed to the UI in an Unqueued event.
func (s *Service) Unqueue(threadID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	th := s.thread(threadID)
	if len(th.queue) == 0 {
		return false
	}
	last := th.queue[len(th.queue)-1]
	th.queue = th.queue[:len(th.queue)-1]
	s.queueChanged(th)
	s.do(func() {
		err := s.st.Unqueue(last.ID)
		s.mu.Lock()
		defer s.mu.Unlock()
		if err != nil {
			s.emit(Notice{ThreadID: th.id, Text: "could not take the queued message back: " + err.Error(), Err: true})
			return
		}
		if last.Context == nil && last.RawContext != nil {
			if ctx, _, err := contextref.DecodeContext(last.RawContext); err == nil {
				last.Context = ctx
			}
		}
		s.emit(Unqueued{ThreadID: th.id, Message: viewMessage(last)})
	})
	return true
}

// Retry asks the agent again for the message whose turn failed or was
// interrupted, as a new reply. It reports whether there was one.
func (s *Service) Retry(threadID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	th := s.thread(threadID)
	if th.phase != Idle || th.retry == nil || s.quitting {
		return false
	}
	user := *th.retry
	th.retry = nil
	s.setPhase(th, Storing)
	s.do(func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.startTurn(th, user)
	})
	return true
}

// Cancel stops the thread's running turn; pending questions of the agent
// are answered cancelled. It reports whether a turn was running.
func (s *Service) Cancel(threadID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	th := s.threads[threadID]
	if th == nil || th.turn == nil {
		return false
	}
	s.stop(th.turn)
	return true
}

// stop cancels a turn; s.mu must be held.
func (s *Service) stop(t *turn) {
	if t.stopping {
		return
	}
	t.stopping = true
	s.setPhase(t.th, Stopping)
	for id, a := range s.asks {
		if a.turn == t {
			s.closeAsk(id, a, agent.PermissionAnswer{Outcome: "cancelled"})
		}
	}
	t.cancel()
	// A backend that does not return in time is recorded as interrupted
	// anyway; whatever it sends later is dropped.
	s.clock.AfterFunc(s.opt.StopWait, func() { s.finish(t, context.Canceled, true) })
}

// Fork makes a new thread with this thread's messages up to and including
// upTo, titled "<title> (fork)", reported by a Forked event.
func (s *Service) Fork(threadID, upTo string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.do(func() {
		t, err := s.st.ForkThread(s.opt.ProjectID, threadID, upTo)
		if err == nil && strings.TrimSpace(t.Title) != "" {
			t.Title = forkTitle(t.Title)
			err = s.st.RenameThread(t.ID, t.Title)
		}
		if err == nil && s.forkSession(threadID, upTo, t) { // it reports Forked (fork.go)
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if err != nil {
			s.emit(Notice{ThreadID: threadID, Text: "fork failed: " + err.Error(), Err: true})
			return
		}
		s.emit(Forked{From: threadID, ThreadID: t.ID, Title: t.Title})
	})
}

func forkTitle(title string) string {
	const suffix = " (fork)"
	r := []rune(title)
	if max := store.MaxTitleLen - len([]rune(suffix)); len(r) > max {
		title = strings.TrimSpace(string(r[:max]))
	}
	return title + suffix
}

// SetMode switches the thread's agent session to a mode. Once the backend
// took it, AgentInfo reports the new state.
func (s *Service) SetMode(threadID, modeID string) {
	s.configure(threadID, "mode", func(c agent.Configurer) error { return c.SetMode(context.Background(), threadID, modeID) },
		func(in *Info) { in.Modes.Current = modeID })
}

// SetConfigOption sets one of the session's config options (the model…).
// Once the backend took it, AgentInfo reports the new state.
func (s *Service) SetConfigOption(threadID, optionID, value string) {
	s.configure(threadID, optionID, func(c agent.Configurer) error {
		return c.SetConfigOption(context.Background(), threadID, optionID, value)
	}, func(in *Info) {
		in.Options = append([]ConfigOption(nil), in.Options...) // the UI holds the last Info
		for i := range in.Options {
			if in.Options[i].ID == optionID {
				in.Options[i].Current = value
			}
		}
	})
}

// sessionStater is a backend that tells its session's state between turns
// (agent.ACP.SessionState: Modes, ConfigOptions, Commands).
type sessionStater interface {
	SessionState(threadID string) []agent.Event
}

// configure runs f on the backend's goroutine; when it succeeds, the
// thread's Info takes the change (set), then what the backend reports of
// its session, and AgentInfo tells the UI between turns.
func (s *Service) configure(threadID, what string, f func(agent.Configurer) error, set func(*Info)) {
	c, ok := s.opt.Backend.(agent.Configurer)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !ok || !s.caps.Modes {
		s.emit(Notice{ThreadID: threadID, Text: s.opt.Backend.Name() + " has no modes or settings to switch", Err: true})
		return
	}
	go func() {
		err := f(c)
		var state []agent.Event
		if ss, ok := s.opt.Backend.(sessionStater); ok && err == nil {
			state = ss.SessionState(threadID)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if err != nil {
			s.emit(Notice{ThreadID: threadID, Text: "could not switch " + what + ": " + err.Error(), Err: true})
			return
		}
		th := s.thread(threadID)
		set(&th.info)
		for _, ev := range state {
			th.info.fold(ev)
		}
		s.emit(AgentInfo{ThreadID: threadID, Info: th.info})
	}()
}

// AnswerPermission answers a PermissionAsked: an option id with outcome
// "selected" or "rejected", or outcome "cancelled".
func (s *Service) AnswerPermission(id int64, ans PermissionAnswer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a := s.asks[id]; a != nil {
		s.closeAsk(id, a, agent.PermissionAnswer(ans))
	}
}

// AnswerSignIn answers a SignInAsked with a method id ("" dismisses).
func (s *Service) AnswerSignIn(id int64, optionID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a := s.asks[id]; a != nil {
		s.closeAsk(id, a, agent.PermissionAnswer{OptionID: optionID, Outcome: "selected"})
	}
}

// closeAsk answers and forgets a question; s.mu must be held.
func (s *Service) closeAsk(id int64, a *ask, ans agent.PermissionAnswer) {
	delete(s.asks, id)
	if a.elicit != nil {
		a.elicit <- agent.ElicitAnswer{Action: "cancel"}
	}
	if a.signIn != nil {
		opt := ans.OptionID
		if ans.Outcome == "cancelled" {
			opt = ""
		}
		a.signIn <- agent.Answer{OptionID: opt}
	}
	if a.permission != nil {
		a.permission <- ans
		if a.pos >= 0 && a.turn != nil {
			it := a.turn.items[a.pos]
			p := a.request
			if it.Permission != nil {
				p = *it.Permission
			} else if it.Tool != nil && it.Tool.Permission != nil {
				p = *it.Tool.Permission
			}
			p.Chosen, p.Outcome = ans.OptionID, ans.Outcome
			if p.Outcome == "" {
				p.Outcome = "selected"
			}
			if p.Outcome == "cancelled" {
				p.Chosen = ""
			}
			if it.Kind == message.ItemTool && it.Tool != nil {
				tool := *it.Tool
				tool.Permission = &p
				it.Tool = &tool
			} else {
				it.Permission = &p
			}
			a.turn.set(a.pos, it)
			if rejects(p) {
				a.turn.reject(p.ToolCallID)
			}
		}
	}
	s.emit(AskClosed{ID: id})
}

// rejects reports whether the answer to a permission turns its call down:
// esc, or an option of a reject kind.
func rejects(p message.Permission) bool {
	if p.Outcome == "rejected" {
		return true
	}
	if p.Outcome != "selected" {
		return false
	}
	for _, o := range p.Options {
		if o.ID == p.Chosen {
			return o.Kind == message.RejectOnce || o.Kind == message.RejectAlways
		}
	}
	return false
}

// Quit stops every running turn (recorded interrupted, with what it had)
// and reports QuitReady once all are on disk, within StopWait.
func (s *Service) Quit() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.quitting {
		return
	}
	s.quitting = true
	for _, th := range s.threads {
		if th.turn != nil {
			s.stop(th.turn)
		}
	}
	s.maybeQuitReady()
}

// maybeQuitReady sends QuitReady when quitting and nothing runs; s.mu must
// be held.
func (s *Service) maybeQuitReady() {
	if !s.quitting || s.quitSent || s.opsBusy > 0 {
		return
	}
	for _, th := range s.threads {
		if th.turn != nil {
			return
		}
	}
	s.quitSent = true
	close(s.quitDone)
	s.emit(QuitReady{})
}

// Shutdown is Quit for an exit path that reads no events (after a signal):
// it returns once every turn is on disk, or when ctx ends.
func (s *Service) Shutdown(ctx context.Context) {
	s.Quit()
	select {
	case <-s.quitDone:
	case <-ctx.Done():
	}
}

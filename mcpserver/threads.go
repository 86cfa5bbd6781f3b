package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// Page bounds of t3_thread_read (and, for PageBytes, of terminal_read).
const (
	PageMessages = 50       // messages per page
	PageBytes    = 64 << 10 // bytes of text per page
)

// ThreadReadInput is t3_thread_read's arguments.
type ThreadReadInput struct {
	ThreadID      string `json:"threadId" jsonschema:"the thread's id: the threadId line of the attached thread (it starts with thr_)"`
	AfterPosition *int64 `json:"afterPosition,omitempty" jsonschema:"omit (or 0) for the first page; for the next page pass the nextPosition of the previous answer"`
}

// ThreadMessage is one message of a page.
type ThreadMessage struct {
	Position  int64  `json:"position" jsonschema:"the message's place in the thread: 1, 2, …"`
	Role      string `json:"role" jsonschema:"user (the person) or assistant (the agent's reply)"`
	Status    string `json:"status,omitempty" jsonschema:"absent when complete; streaming (still being written), interrupted, error or queued (not yet sent)"`
	Text      string `json:"text" jsonschema:"the message as Markdown; attached context appears as Markdown links"`
	Truncated bool   `json:"truncated,omitempty" jsonschema:"the message was too long for one page and was cut"`
}

// ThreadPage is t3_thread_read's answer.
type ThreadPage struct {
	ThreadID     string          `json:"threadId"`
	Title        string          `json:"title" jsonschema:"the thread's title (may be empty)"`
	Messages     []ThreadMessage `json:"messages" jsonschema:"the messages of this page, oldest first"`
	NextPosition *int64          `json:"nextPosition" jsonschema:"pass as afterPosition to read the next page; null when this page is the last"`
}

// threads reads thread pages from a store opened read-only on first use.
type threads struct {
	dataDir string
	socket  string // the app's panes socket: the app decides what is readable
	open    func(dir string) (*store.Store, error)

	mu sync.Mutex
	st *store.Store
}

func (t *threads) store() (*store.Store, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.st != nil {
		return t.st, nil
	}
	st, err := t.open(t.dataDir)
	if err != nil {
		return nil, err
	}
	t.st = st
	return st, nil
}

func (t *threads) close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.st == nil {
		return nil
	}
	err := t.st.Close()
	t.st = nil
	return err
}

// read returns one page of a thread the running app says may be read.
// Its errors are worded for the agent.
func (t *threads) read(ctx context.Context, in ThreadReadInput) (ThreadPage, error) {
	if in.ThreadID == "" {
		return ThreadPage{}, errors.New("threadId is required: the threadId line of the attached thread")
	}
	after := int64(0)
	if in.AfterPosition != nil {
		after = *in.AfterPosition
	}
	if after < 0 {
		return ThreadPage{}, errors.New("afterPosition must be 0 or more (the nextPosition of the previous page)")
	}
	// The running app decides what may be read, not the flags this
	// process was started with (an agent can start chipchat mcp itself).
	readable, aerr := AskScope(ctx, t.socket, in.ThreadID)
	var ae appError
	switch {
	case errors.Is(aerr, ErrNoApp):
		return ThreadPage{}, errors.New("threads can be read only while the chipchat app runs (it decides which ones): the chipchat app is not running")
	case errors.As(aerr, &ae):
		return ThreadPage{}, aerr
	case aerr != nil:
		return ThreadPage{}, fmt.Errorf("cannot ask the chipchat app which threads may be read: %w", aerr)
	}
	st, err := t.store()
	if err != nil {
		return ThreadPage{}, fmt.Errorf("cannot read chipchat's threads: %w", err)
	}
	th, err := st.Thread(in.ThreadID)
	if errors.Is(err, store.ErrNotFound) {
		return ThreadPage{}, fmt.Errorf("there is no thread %q in this chipchat data directory (it may have been deleted, or belong to another chipchat environment)", in.ThreadID)
	}
	if err != nil {
		return ThreadPage{}, fmt.Errorf("cannot read thread %s: %w", in.ThreadID, err)
	}
	if !readable {
		return ThreadPage{}, fmt.Errorf("thread %s belongs to another project: only threads of the project chipchat runs in, and threads the user attached in them, can be read here", in.ThreadID)
	}
	msgs, more, err := st.MessagesAfter(th.ID, after, PageMessages)
	if err != nil {
		return ThreadPage{}, fmt.Errorf("cannot read thread %s: %w", in.ThreadID, err)
	}
	page := ThreadPage{ThreadID: th.ID, Title: th.Title, Messages: make([]ThreadMessage, 0, len(msgs))}
	size := 0
	for i, m := range msgs {
		text := messageText(m)
		if size+len(text) > PageBytes && len(page.Messages) > 0 {
			more = true
			break
		}
		tm := ThreadMessage{Position: m.Seq, Role: string(m.Role), Text: text}
		if m.Status != message.StatusDone {
			tm.Status = string(m.Status)
		}
		if len(text) > PageBytes {
			// alone on its page (a page with others broke off above)
			tm.Text, tm.Truncated = cut(text, PageBytes), true
			page.Messages = append(page.Messages, tm)
			more = more || i < len(msgs)-1
			break
		}
		size += len(text)
		page.Messages = append(page.Messages, tm)
	}
	if more && len(page.Messages) > 0 {
		next := page.Messages[len(page.Messages)-1].Position
		page.NextPosition = &next
	}
	return page, nil
}

// attached reports whether a message the user sent in a thread of project
// projectID carries a thread chip for threadID (T3 Code's rule: a record
// the user created, never one an agent wrote into a reply).
func attached(st *store.Store, projectID int64, threadID string) (bool, error) {
	ts, err := st.Threads(projectID)
	if err != nil {
		return false, err
	}
	for _, th := range ts {
		msgs, err := st.MessagesRaw(th.ID)
		if err != nil {
			return false, err
		}
		for _, m := range msgs {
			if m.Role != message.RoleUser || !bytes.Contains(m.RawContext, []byte(threadID)) {
				continue
			}
			ctx, _, err := contextref.DecodeContext(m.RawContext)
			if err != nil || ctx == nil {
				continue
			}
			for _, r := range ctx.Records {
				if tr, ok := r.(*contextref.ThreadRecord); ok && tr.ThreadID == threadID {
					return true, nil
				}
			}
		}
	}
	return false, nil
}

// messageText is what the agent reads of a message: a user message's
// canonical Markdown, a reply's text items joined by blank lines (its
// thoughts, tool calls and notices are left out). A reply stored without
// items reads as its text.
func messageText(m store.Message) string {
	if m.Role != message.RoleAssistant {
		return m.Text
	}
	var parts []string
	for _, it := range m.Items {
		if text := it.Body().String(); it.Kind == message.ItemText && strings.TrimSpace(text) != "" {
			parts = append(parts, text)
		}
	}
	if len(parts) == 0 {
		return m.Text
	}
	return strings.Join(parts, "\n\n")
}

// cut keeps the first bytes of text that fit in limit with a note saying
// how much was left out, never splitting a character.
func cut(text string, limit int) string {
	note := "\n\n[cut: this message has " + strconv.Itoa(len(text)) + " bytes; only the first "
	keep := limit - len(note) - 32
	for keep > 0 && !utf8.RuneStart(text[keep]) {
		keep--
	}
	return text[:keep] + note + strconv.Itoa(keep) + " are shown]"
}

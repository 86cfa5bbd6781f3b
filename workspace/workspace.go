package workspace

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/chipchat/chipchat/assets"
	"github.com/chipchat/chipchat/store"
)

// HistoryRows is how many prompts History reads.
const HistoryRows = 500

// ErrNotFound is what a lookup of a thread that is not stored says
// (errors.Is).
var ErrNotFound = store.ErrNotFound

// Options are what main wires in.
type Options struct {
	Store  *store.Store
	Assets *assets.Store // nil: attachments are refused
	// Dir is the project directory; it names the project (store.ProjectKey)
	// unless Project is set.
	Dir string
	// Project is where the project is (Local{Root: Dir} when nil): its
	// Key names it in the store; the UI reaches its files and commands
	// through it (Workspace.Project).
	Project Project
	// Messages reads a thread's messages as the conversation wants them
	// (main passes chat.LoadThread over the store): a reply whose writer
	// died shows interrupted, contexts left raw.
	Messages func(st *store.Store, threadID string) ([]store.Message, error)
	// MaxAttachment is the largest image or file the agent takes, in
	// bytes (the backend's declared limit); 0: no limit. CheckAttachments
	// applies it.
	MaxAttachment int64
	// AttachmentBytes is the paste limit when there is no asset store
	// (the asset store's own limit otherwise).
	AttachmentBytes int64
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Workspace is one project's storage for the UI. It is safe for
// concurrent use: the funcs its methods return run on other goroutines.
type Workspace struct {
	o       Options
	project int64
	env     string
	drafts  drafts
	refs    ThreadSource
	link    *Link // the project's connection, when it can drop (link.go)
}

// Open finds (or makes) the project of o.Dir. It does I/O: main calls it
// before the UI starts.
func Open(o Options) (*Workspace, error) {
	if o.Store == nil {
		return nil, errors.New("workspace: no store")
	}
	if o.Messages == nil {
		return nil, errors.New("workspace: no message reader")
	}
	if o.Project == nil {
		o.Project = Local{Root: o.Dir}
	}
	p, err := o.Store.Project(o.Project.Key())
	if err != nil {
		return nil, err
	}
	w := &Workspace{o: o, project: p.ID, env: o.Store.EnvironmentID()}
	w.drafts.init()
	w.refs.w = w
	if l, ok := o.Project.(Linked); ok {
		w.link = &Link{ch: l.Links()}
	}
	return w, nil
}

// Link is the project's connection (nil for a project here): its status
// for the header and the wait for its next step.
func (w *Workspace) Link() *Link { return w.link }

// Project is where the project is: its files, shells and git.
func (w *Workspace) Project() Project { return w.o.Project }

// ProjectID is the project's id in the store.
func (w *Workspace) ProjectID() int64 { return w.project }

// EnvironmentID is this data directory's environment id.
func (w *Workspace) EnvironmentID() string { return w.env }

// DataDir is the data directory (the clipboard registry names it).
func (w *Workspace) DataDir() string { return w.o.Store.Dir() }

func (w *Workspace) now() time.Time {
	if w.o.Now != nil {
		return w.o.Now()
	}
	return time.Now()
}

// Thread is a thread of the project.
type Thread struct {
	ID        string
	ProjectID int64
	Title     string // "" until the first user message gives one
	Updated   time.Time
}

func thread(t store.Thread) Thread {
	return Thread{ID: t.ID, ProjectID: t.ProjectID, Title: t.Title, Updated: t.Updated}
}

// Opened is a thread as it opens: its messages (for the conversation and
// the transcript) and its saved draft.
type Opened struct {
	Thread   Thread
	Messages []store.Message
	Draft    *Draft // nil: none saved
}

// Start picks the thread the app starts on — threadID when given, else a
// new one when newThread, else the project's most recent thread (a new
// one when it has none) — and opens it.
func (w *Workspace) Start(threadID string, newThread bool) func() (Opened, error) {
	st, project := w.o.Store, w.project
	return func() (Opened, error) {
		switch {
		case threadID != "":
			if _, err := st.Thread(threadID); err != nil {
				if errors.Is(err, store.ErrNotFound) {
					return Opened{}, fmt.Errorf("no thread %s in %s", threadID, st.Dir())
				}
				return Opened{}, err
			}
			return w.load(threadID)
		case !newThread:
			ts, err := st.Threads(project)
			if err != nil {
				return Opened{}, err
			}
			if len(ts) > 0 {
				return w.load(ts[0].ID)
			}
		}
		return Opened{Thread: w.NewThread()}, nil
	}
}

// Load opens thread id: the thread, its messages and its draft.
func (w *Workspace) Load(id string) func() (Opened, error) {
	return func() (Opened, error) { return w.load(id) }
}

// Latest opens the project's most recent thread, else a new one (after the
// open thread was deleted).
// A failing list opens a new thread.
func (w *Workspace) Latest() func() (Opened, error) {
	list := w.Threads()
	return func() (Opened, error) {
		if ts, err := list(); err == nil && len(ts) > 0 {
			return w.load(ts[0].ID)
		}
		return Opened{Thread: w.NewThread()}, nil
	}
}

func (w *Workspace) load(id string) (Opened, error) {
	st := w.o.Store
	t, err := st.Thread(id)
	if err != nil {
		return Opened{}, err
	}
	msgs, err := w.o.Messages(st, id)
	if err != nil {
		return Opened{}, err
	}
	o := Opened{Thread: thread(t), Messages: msgs}
	d, ok, err := st.LoadDraft(id)
	if err != nil {
		return Opened{}, err
	}
	if ok {
		dd := draft(d)
		o.Draft = &dd
	}
	return o, nil
}

// NewThread is a new thread of the project, stored only with its first
// message or draft (store.NewThread): leaving it empty leaves nothing
// behind. No I/O.
func (w *Workspace) NewThread() Thread { return thread(w.o.Store.NewThread(w.project)) }

// Threads lists the project's stored threads, newest first.
func (w *Workspace) Threads() func() ([]Thread, error) {
	st, project := w.o.Store, w.project
	return func() ([]Thread, error) {
		ts, err := st.Threads(project)
		out := make([]Thread, len(ts))
		for i, t := range ts {
			out[i] = thread(t)
		}
		return out, err
	}
}

// Thread reads one thread (its title comes from its first message).
func (w *Workspace) Thread(id string) func() (Thread, error) {
	st := w.o.Store
	return func() (Thread, error) {
		t, err := st.Thread(id)
		return thread(t), err
	}
}

// Rename sets a thread's title.
func (w *Workspace) Rename(id, title string) func() error {
	st := w.o.Store
	return func() error { return st.RenameThread(id, title) }
}

// Delete removes a thread and all its messages.
func (w *Workspace) Delete(id string) func() error {
	st := w.o.Store
	return func() error { return st.DeleteThread(id) }
}

// ThreadRef is a thread as the # picker lists it.
type ThreadRef struct {
	EnvironmentID, ThreadID, Title string
	Updated                        time.Time
}

// ThreadSource lists the project's threads other than the open one for
// the # picker. The open thread's id is kept behind a mutex: List runs off
// the UI goroutine.
type ThreadSource struct {
	w       *Workspace
	mu      sync.Mutex
	current string
}

// ThreadSource is the workspace's # picker source.
func (w *Workspace) ThreadSource() *ThreadSource { return &w.refs }

// SetCurrent names the open thread. No I/O.
func (s *ThreadSource) SetCurrent(id string) {
	s.mu.Lock()
	s.current = id
	s.mu.Unlock()
}

// List is the picker's list: newest first, without the open thread. It
// does I/O: the caller runs it off the UI goroutine (the composer runs
// its providers in commands).
func (s *ThreadSource) List() ([]ThreadRef, error) {
	ts, err := s.w.Threads()()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	cur := s.current
	s.mu.Unlock()
	out := make([]ThreadRef, 0, len(ts))
	for _, t := range ts {
		if t.ID != cur {
			out = append(out, ThreadRef{EnvironmentID: s.w.env, ThreadID: t.ID, Title: t.Title, Updated: t.Updated})
		}
	}
	return out, nil
}

// Here reports whether thread id is one of this project's: its title, or
// that it belongs to another project (other), or ErrNotFound.
func (w *Workspace) Here(id string) func() (title string, other bool, err error) {
	st, project := w.o.Store, w.project
	return func() (string, bool, error) {
		t, err := st.Thread(id)
		if err != nil {
			return "", false, err
		}
		return t.Title, t.ProjectID != project, nil
	}
}

// NoteExcerpt records when a terminal excerpt was taken (now, by the
// workspace's clock), so it expires.
func (w *Workspace) NoteExcerpt(contextID string) func() error {
	st, at := w.o.Store, w.now()
	return func() error { return st.NoteExcerpt(contextID, at) }
}

// ErrorWords is a store error's cause and file ("disk full
// (/…/chipchat.db)"), else the error's text.
func ErrorWords(err error) string {
	var ioe *store.IOError
	if errors.As(err, &ioe) {
		return ioe.Cause.String() + " (" + ioe.Path + ")"
	}
	return err.Error()
}

// HumanSize writes a byte count as the asset store does ("1.5 KiB").
func HumanSize(n int64) string { return assets.HumanSize(n) }

// randomID mints a client-side id such as an attachment's local id.
func randomID(prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// Title is the title a message's text gives a thread: its first non-blank
// line, chips as their labels, cut to the store's length.
func Title(text string) string { return store.TitleFromText(text) }

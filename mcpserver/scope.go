package mcpserver

import (
	"context"
	"errors"

	"github.com/chipchat/chipchat/store"
)

// ScopeFunc is the app's answer to "may t3_thread_read read this thread?"
// (issue 23 item 6: the app decides, not chipchat mcp's --project flag).
// It is called on the socket server's goroutines and must not wait for
// the UI goroutine. An unknown thread is not readable (false, nil).
type ScopeFunc func(threadID string) (bool, error)

// StoreScope is the app's rule over its own store: readable are the
// threads of the project the app runs in (projectKey, store.ProjectKey of
// its start directory) and the threads of other projects that a user
// message of that project attached as a thread chip (T3 Code's rule:
// records the user created; a thread id in a reply does not count).
func StoreScope(st *store.Store, projectKey string) ScopeFunc {
	return func(threadID string) (bool, error) {
		th, err := st.Thread(threadID)
		if errors.Is(err, store.ErrNotFound) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		p, err := st.ProjectByKey(projectKey)
		if errors.Is(err, store.ErrNotFound) {
			return false, nil // no thread of the project yet, so no chip
		}
		if err != nil {
			return false, err
		}
		if p.ID == th.ProjectID {
			return true, nil
		}
		return attached(st, p.ID, th.ID)
	}
}

// SetScope makes the server answer thread requests with f (nil: it
// answers that this app shares no threads).
func (s *PaneServer) SetScope(f ScopeFunc) {
	s.mu.Lock()
	s.scope = f
	s.mu.Unlock()
}

// SetThreads makes the app's socket decide t3_thread_read's scope from
// its store and project (StoreScope). Call it once the store is open.
func (p *Panes) SetThreads(st *store.Store, projectKey string) {
	if p == nil {
		return
	}
	p.srv.SetScope(StoreScope(st, projectKey))
}

// answerScope is the socket's answer to a thread request.
func (s *PaneServer) answerScope(threadID string) paneResponse {
	s.mu.Lock()
	f := s.scope
	s.mu.Unlock()
	if f == nil {
		return paneResponse{Error: "this chipchat app does not share its threads"}
	}
	ok, err := f(threadID)
	if err != nil {
		return paneResponse{Error: "chipchat cannot tell which threads may be read: " + err.Error()}
	}
	return paneResponse{Readable: &ok}
}

// AskScope asks the app listening on path whether threadID may be read.
// When no app answers, the error wraps ErrNoApp.
func AskScope(ctx context.Context, path, threadID string) (bool, error) {
	resp, err := ask(ctx, path, paneRequest{Thread: threadID})
	if err != nil {
		return false, err
	}
	return *resp.Readable, nil
}

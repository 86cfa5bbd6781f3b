package agent

import (
	"context"
	"errors"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"

	acp "github.com/coder/acp-go-sdk"
)

// SessionTitle is the title the agent gave the thread's session (ACP's
// session_info_update): one line, without control characters.
type SessionTitle struct{ Title string }

func (SessionTitle) isEvent() {}

// acpTitle is a session title from the agent as one line of text, "" for
// none.
func acpTitle(p *string) string {
	if p == nil {
		return ""
	}
	return strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, *p)), " ")
}

// AgentSession is one of the agent's own sessions, as session/list tells.
type AgentSession struct {
	ID      string
	Title   string // one line; "" when the agent gave none
	Cwd     string
	Updated time.Time // zero when the agent did not say
}

// ErrNotOffered is what a session method answers when the agent does not
// offer it (its capabilities say so).
var ErrNotOffered = errors.New("the agent does not offer this")

// SessionLister is a backend that lists the agent's own sessions and
// imports one as a thread (agent.ACP).
type SessionLister interface {
	// ListSessions lists the agent's sessions for the directory dir, the
	// newest first; ErrNotOffered when the agent has no session/list.
	ListSessions(ctx context.Context, dir string) ([]AgentSession, error)
	// ImportSession makes the agent's session sid the session of threadID
	// and returns its history as the agent replays it (session/load);
	// ErrNotOffered when the agent cannot load sessions.
	ImportSession(ctx context.Context, threadID, sid, dir string) ([]HistoryMessage, error)
}

var _ SessionLister = (*ACP)(nil)

// acpListPages bounds how many pages of session/list are read.
const acpListPages = 20

// ListSessions lists the agent's sessions in dir (session/list with its
// cwd), starting the agent if it is not running.
func (a *ACP) ListSessions(ctx context.Context, dir string) ([]AgentSession, error) {
	p, err := a.ensureProc(ctx, dir)
	if err != nil {
		return nil, err
	}
	if p.caps.SessionCapabilities.List == nil {
		return nil, ErrNotOffered
	}
	cwd := p.dir
	if dir != "" {
		if abs, err := filepath.Abs(dir); err == nil {
			cwd = abs
		}
	}
	var out []AgentSession
	var cursor *string
	for range acpListPages {
		resp, err := p.conn.ListSessions(ctx, acp.ListSessionsRequest{Cwd: &cwd, Cursor: cursor})
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, p.wrapErr("session/list", err)
		}
		for _, s := range resp.Sessions {
			if s.SessionId == "" || (s.Cwd != "" && filepath.Clean(s.Cwd) != cwd) {
				continue
			}
			as := AgentSession{ID: string(s.SessionId), Title: acpTitle(s.Title), Cwd: s.Cwd}
			if s.UpdatedAt != nil {
				if t, err := time.Parse(time.RFC3339Nano, *s.UpdatedAt); err == nil {
					as.Updated = t
				}
			}
			out = append(out, as)
		}
		if resp.NextCursor == nil || *resp.NextCursor == "" || (cursor != nil && *cursor == *resp.NextCursor) {
			break
		}
		cursor = resp.NextCursor
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Updated.After(out[j].Updated) })
	return out, nil
}

// acpReplay collects the messages of a session the agent replays.
type acpReplay struct {
	msgs []HistoryMessage
}

// add appends a chunk of role's text, joining the message it continues.
func (r *acpReplay) add(role, text string) {
	if text == "" {
		return
	}
	if n := len(r.msgs); n > 0 && r.msgs[n-1].Role == role {
		r.msgs[n-1].Text += text
		return
	}
	r.msgs = append(r.msgs, HistoryMessage{Role: role, Text: text})
}

// collect keeps a replayed message chunk of the session being imported;
// a.mu must be held.
func (s *acpSession) collect(u acp.SessionUpdate) {
	if s.replay == nil {
		return
	}
	switch {
	case u.UserMessageChunk != nil:
		s.replay.add("user", acpContentText(u.UserMessageChunk.Content))
	case u.AgentMessageChunk != nil:
		s.replay.add("assistant", acpContentText(u.AgentMessageChunk.Content))
	}
}

// ImportSession loads the agent's session sid as threadID's session
// (session/load) and returns the history the agent replayed: the user's
// and the agent's messages, in order (thoughts and tool calls are left
// out).
func (a *ACP) ImportSession(ctx context.Context, threadID, sid, dir string) ([]HistoryMessage, error) {
	p, err := a.ensureProc(ctx, dir)
	if err != nil {
		return nil, err
	}
	if !p.caps.LoadSession {
		return nil, ErrNotOffered
	}
	cwd := p.dir
	if dir != "" {
		if abs, err := filepath.Abs(dir); err == nil {
			cwd = abs
		}
	}
	servers, _ := a.sessionMCPServers(ctx, p)
	var extra []string
	if p.caps.SessionCapabilities.AdditionalDirectories != nil {
		for _, r := range a.opts.Roots {
			if abs, err := filepath.Abs(r); err == nil {
				extra = append(extra, abs)
			}
		}
	}
	rep := &acpReplay{}
	a.mu.Lock()
	s := a.session(sid)
	s.replay = rep
	a.mu.Unlock()
	err = a.load(ctx, p, sid, cwd, servers, extra, func(Event) {})
	a.mu.Lock()
	s.replay = nil
	msgs := rep.msgs
	if err == nil {
		a.sessions[threadID] = sid
	}
	a.mu.Unlock()
	if err != nil {
		if errors.Is(err, errACPRestart) || ctx.Err() != nil {
			return nil, err
		}
		return nil, p.wrapErr("session/load", err)
	}
	return msgs, nil
}

package chat

import (
	"bytes"
	"fmt"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// Payload for the backends chipchat drives itself (Capabilities.
// InlinePayload: openai, exec, echo): an @ mention's file is snapshotted
// into the asset store at send, and every later turn resends that
// snapshot; a thread chip hands the agent that thread's recent messages.

// threadContextMessages is how many of a referenced thread's latest
// messages chat hands the backend (which cuts them to
// Limits.ThreadContextBytes, oldest first).
const threadContextMessages = 200

// snapshotMentions reads what each mention of a message to be sent stands
// for and stores it as an asset (worker). A mention that cannot be read
// keeps only its marker, and the user is told.
func (s *Service) snapshotMentions(threadID, text string, recs []contextref.Record) []store.MentionSnapshot {
	if !s.caps.InlinePayload || !contextref.HasReferences(text) {
		return nil
	}
	byID := map[string]*contextref.MentionRecord{}
	for _, r := range recs {
		if m, ok := r.(*contextref.MentionRecord); ok {
			byID[m.ContextID] = m
		}
	}
	var out []store.MentionSnapshot
	seen := map[string]bool{}
	for _, o := range contextref.Scan(text) {
		m := byID[o.ContextID]
		if m == nil || seen[o.ContextID] {
			continue
		}
		seen[o.ContextID] = true
		snapshot := s.opt.Snapshot
		if snapshot == nil {
			snapshot = agent.SnapshotMention
		}
		snap, err := snapshot(s.opt.Dir, m.Path, s.opt.Limits)
		if err == nil {
			var id string
			id, _, err = s.opt.Assets.Put(bytes.NewReader(snap.Data))
			if err == nil {
				out = append(out, store.MentionSnapshot{ContextID: m.ContextID, AssetID: id, Kind: string(snap.Kind), Size: snap.Size, MimeType: snap.MimeType})
				continue
			}
		}
		s.mu.Lock()
		s.emit(Notice{ThreadID: threadID, Text: fmt.Sprintf("@%s is not sent to the agent: %v", m.Path, err), Err: true})
		s.mu.Unlock()
	}
	return out
}

// resolver finds the payload of a message's records: assets by id, and
// its mentions' snapshots.
func (s *Service) resolver(snaps map[string]store.MentionSnapshot) agent.Resolver {
	r := agent.Resolver{Asset: func(id string) (string, bool) {
		p, err := s.opt.Assets.Path(id)
		return p, err == nil
	}}
	if !s.caps.InlinePayload {
		return r
	}
	r.Mention = func(rec *contextref.MentionRecord) (agent.Attachment, bool) {
		sn, ok := snaps[rec.ContextID]
		if !ok {
			return agent.Attachment{}, false
		}
		p, err := s.opt.Assets.Path(sn.AssetID)
		if err != nil {
			p = "" // the bytes are gone: the model is told so
		}
		ms := agent.MentionSnapshot{Kind: agent.AttachmentKind(sn.Kind), Size: sn.Size, MimeType: sn.MimeType}
		return ms.Attachment("", "", p, sn.AssetID), true
	}
	return r
}

// threadContexts are the threads a message references, with their recent
// messages, for backends without a thread-reading tool (worker).
func (s *Service) threadContexts(text string, recs []contextref.Record) []agent.ThreadContext {
	if !s.caps.InlinePayload || !contextref.HasReferences(text) {
		return nil
	}
	byID := map[string]*contextref.ThreadRecord{}
	for _, r := range recs {
		if t, ok := r.(*contextref.ThreadRecord); ok {
			byID[t.ContextID] = t
		}
	}
	env := s.st.EnvironmentID()
	var out []agent.ThreadContext
	seen := map[string]bool{}
	for _, o := range contextref.Scan(text) {
		t := byID[o.ContextID]
		if t == nil || seen[o.ContextID] {
			continue
		}
		seen[o.ContextID] = true
		tc := agent.ThreadContext{ContextID: t.ContextID, ThreadID: t.ThreadID, Title: t.Title}
		var msgs []store.Message
		var err error
		if t.EnvironmentID == env {
			msgs, err = s.st.Messages(t.ThreadID)
		}
		if t.EnvironmentID != env || err != nil || len(msgs) == 0 {
			if _, terr := s.st.Thread(t.ThreadID); t.EnvironmentID != env || terr != nil {
				tc.Missing = true
			}
		}
		if len(msgs) > threadContextMessages {
			msgs = msgs[len(msgs)-threadContextMessages:]
		}
		for _, m := range msgs {
			switch {
			case m.Status == message.StatusQueued:
			case m.Role == message.RoleUser:
				text, recs := resolveContext(m.Text, m.Context)
				tc.Messages = append(tc.Messages, agent.HistoryMessage{Role: "user", Text: contextref.ProjectForProvider(text, recs)})
			default:
				if r := message.ReplyText(m.Items); r != "" {
					tc.Messages = append(tc.Messages, agent.HistoryMessage{Role: "assistant", Text: r})
				}
			}
		}
		out = append(out, tc)
	}
	return out
}

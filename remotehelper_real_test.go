package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/internal/acpagents"
	"github.com/chipchat/chipchat/internal/fakemodel"
	"github.com/chipchat/chipchat/message"
)

// opencode on a remote project (started there over the master, talking
// to a fake model on this machine) edits a file that exists there: its
// write (opencode writes only through fs/write_text_file) lands through
// chipchat's helper on the remote and shows as a diff of the file's old
// and new line.
func TestRemoteHelperRealOpencodeEdit(t *testing.T) {
	ag, err := acpagents.Find("opencode")
	if err != nil {
		t.Fatal(err)
	}
	acpagents.Need(t, ag)
	srv, rp := newTestRemote(t)
	// The agent's home and config are the remote's.
	d, err := acpagents.NewDirs(filepath.Join(srv.Home, "agent"))
	if err != nil {
		t.Fatal(err)
	}
	files := acpagents.DefaultFiles(rp.Dir())
	writeFile(t, files.Notes, files.OldLine+"\n")
	model := fakemodel.New(ag.Provider, acpagents.Responder(ag, files))
	t.Cleanup(model.Close)
	extra, err := ag.Setup(d, model.URL)
	if err != nil {
		t.Fatal(err)
	}
	srv.HandOver(t) // the remote user's, in sshtest's second-user mode
	command := "exec env -i"
	for _, kv := range d.Env(extra) {
		command += " " + shellQuote(kv)
	}
	for _, a := range ag.Argv {
		command += " " + shellQuote(a)
	}
	b, err := agent.NewWith("acp:"+command, agent.Options{Host: remoteHost{rp}, ACP: agent.ACPOptions{Dir: rp.Dir(), LogPath: "-"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { agent.Close(b) })
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var diffs []message.ToolContent
	var said strings.Builder
	err = b.Run(ctx, agent.Turn{ThreadID: "th-1", Text: "Please edit " + acpagents.MarkEditAllow, Prompt: "Please edit " + acpagents.MarkEditAllow, Dir: rp.Dir()}, func(e agent.Event) {
		switch e := e.(type) {
		case agent.Permission:
			ans := agent.PermissionAnswer{Outcome: "rejected"}
			for _, o := range e.Request.Options {
				if o.Kind == message.AllowOnce {
					ans = agent.PermissionAnswer{OptionID: o.ID, Outcome: "selected"}
				}
			}
			e.Reply <- ans
		case agent.ToolCall:
			diffs = append(diffs, e.Tool.Content...)
		case agent.ToolUpdate:
			diffs = append(diffs, e.Content...)
		case agent.Notice:
			said.WriteString(e.Text + "\n")
		case agent.TextDelta:
			said.WriteString(e.Text)
		}
	})
	if err != nil {
		t.Fatalf("turn: %v\nmodel:\n%s", err, model.Summary())
	}
	if got, _ := os.ReadFile(files.Notes); string(got) != files.AllowLine+"\n" {
		t.Fatalf("the remote file holds %q; the turn said:\n%s\nmodel:\n%s", got, said.String(), model.Summary())
	}
	ok := false
	for _, c := range diffs {
		ok = ok || c.Type == message.ContentDiff && c.Path == files.Notes && c.OldText != nil &&
			strings.Contains(*c.OldText, files.OldLine) && strings.Contains(c.NewText, files.AllowLine)
	}
	if !ok {
		t.Errorf("no diff of %s from %q to %q among %+v", files.Notes, files.OldLine, files.AllowLine, diffs)
	}
	if strings.Contains(said.String(), "refused") {
		t.Errorf("the turn said:\n%s", said.String())
	}
	if rp.helper.uploaded == 0 {
		t.Error("the helper was not staged")
	}
}

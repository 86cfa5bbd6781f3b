package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// exportFixture is a data dir holding one thread of project proj: a user
// message with a mention chip and a reply with an edit's diff.
func exportFixture(t *testing.T) (data, proj, threadID string) {
	t.Helper()
	root := t.TempDir()
	data, proj = filepath.Join(root, "data"), filepath.Join(root, "proj")
	writeFile(t, filepath.Join(proj, "main.go"), "package main\n")
	st, err := store.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := st.Project(store.ProjectKey(proj))
	if err != nil {
		t.Fatal(err)
	}
	th := st.NewThread(p.ID)
	mention := &contextref.MentionRecord{Base: contextref.NewBase(contextref.KindMention, "ctx_m1", "main.go"), Path: "main.go"}
	if _, err := st.AddMessage(store.Message{ThreadID: th.ID, Role: message.RoleUser, Text: "Look at " + contextref.LinkFor(mention),
		Context: &contextref.MessageContext{Version: 1, Records: []contextref.Record{mention}}}); err != nil {
		t.Fatal(err)
	}
	old := "a\n"
	if _, err := st.AddMessage(store.Message{ThreadID: th.ID, Role: message.RoleAssistant, Items: []message.Item{
		{ID: "item_1", Kind: message.ItemText, Text: "Done."},
		{ID: "item_2", Kind: message.ItemTool, Tool: &message.Tool{CallID: "c1", Title: "Edit main.go", Status: message.ToolCompleted,
			Content: []message.ToolContent{{Type: message.ContentDiff, Path: "main.go", OldText: &old, NewText: "b\n"}}}},
	}}); err != nil {
		t.Fatal(err)
	}
	return data, proj, th.ID
}

func runIn(t *testing.T, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(chipchatBinary(t), args...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatal(err)
		}
		code = ee.ExitCode()
	}
	return out.String(), errb.String(), code
}

func TestExportCommand(t *testing.T) {
	data, proj, id := exportFixture(t)
	xdg := filepath.Join(t.TempDir(), "xdg")
	env := []string{"XDG_DATA_HOME=" + xdg}

	// The default: the last thread, Markdown, under $XDG_DATA_HOME.
	out, errs, code := runIn(t, proj, env, "export", "--data-dir", data)
	path := strings.TrimSpace(out)
	if code != 0 || filepath.Dir(path) != filepath.Join(xdg, "chipchat", "exports") || !strings.HasPrefix(filepath.Base(path), "Look-at-main.go-") {
		t.Fatalf("export: %q %q %d", out, errs, code)
	}
	md, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Look at main.go", "## You · ", "Look at [main.go](t3-context://v1/mention/ctx_m1)",
		"## Agent · ", "Done.", "<summary>Tool: Edit main.go (completed)</summary>", "```diff\n--- a/main.go\n+++ b/main.go\n", "-a\n+b\n",
		"## What the agent read", "[Mention: main.go; ref=ctx_m1]"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("the exported file lacks %q:\n%s", want, md)
		}
	}
	// Never overwritten without --force.
	if _, errs, code := runIn(t, proj, env, "export", "--data-dir", data, path); code != 1 || !strings.Contains(errs, "exists (--force replaces it)") {
		t.Errorf("export over an existing file: %q %d", errs, code)
	}
	if _, _, code := runIn(t, proj, env, "export", "--data-dir", data, "--force", path); code != 0 {
		t.Errorf("--force: exit %d", code)
	}

	// JSON of a thread by id, to stdout.
	out, errs, code = runIn(t, proj, env, "export", "--data-dir", data, "--thread", id, "--format", "json", "-")
	var doc struct {
		Version  int
		Thread   struct{ ID string }
		Messages []struct {
			Context json.RawMessage
			Items   []struct{ Kind string }
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 {
		t.Fatalf("json: %v %q %d", err, errs, code)
	}
	if doc.Version != 1 || doc.Thread.ID != id || len(doc.Messages) != 2 || len(doc.Messages[1].Items) != 2 || !strings.Contains(string(doc.Messages[0].Context), "ctx_m1") {
		t.Errorf("json export: %s", out)
	}

	// Errors: one line, exit 1 (nothing to export) or 2 (the command line).
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--thread", "th_nope"}, 1, "no thread th_nope"},
		{[]string{"--format", "xml"}, 2, `--format "xml": allowed are md and json`},
		{[]string{"--last", "--thread", id}, 2, "--thread and --last exclude each other"},
	} {
		_, errs, code := runIn(t, proj, env, append([]string{"export", "--data-dir", data}, c.args...)...)
		if code != c.code || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("export %v: %q exit %d, want %q exit %d", c.args, errs, code, c.want, c.code)
		}
	}
	if _, errs, code := runIn(t, t.TempDir(), env, "export", "--data-dir", data); code != 1 || !strings.Contains(errs, "no thread to export") {
		t.Errorf("a project without threads: %q %d", errs, code)
	}
}

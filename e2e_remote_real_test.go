package main

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chipchat/chipchat/internal/acpagents"
	"github.com/chipchat/chipchat/internal/fakemodel"
	"github.com/chipchat/chipchat/internal/sshtest"
)

// Issue 28's end-to-end checks against the real agents (Claude Code
// through claude-agent-acp, opencode), each started on the remote over
// chipchat's master and talking to a fake model server on this machine's
// loopback (the remote is this machine too). What reaches the agent is
// read where it ends: in the model requests the fake server records.

// remoteRealTurn bounds one turn of a real agent (its first start is
// slow: opencode installs its plugin package, Claude Code warms up).
const remoteRealTurn = 90 * time.Second

// remoteReal is a remote project whose [remotes.box] agent is a real ACP
// agent running there, its model the fake server.
type remoteReal struct {
	*remoteEnv
	ag    acpagents.Agent
	model *fakemodel.Server
	s     *tmuxSession
}

// startRemoteReal starts chipchat --remote box with the real agent name on
// the remote (its HOME and config under the server's HOME), answered by
// what respond makes for it. The local start directory holds shot.png
// (pngBytes); prepare writes the test's other files before chipchat
// starts (in sshtest's second-user mode the command hands them over to
// their side's user).
func startRemoteReal(t *testing.T, name string, respond func(acpagents.Agent, *remoteEnv) fakemodel.Responder, pngBytes []byte, prepare ...func(*remoteEnv)) *remoteReal {
	t.Helper()
	ag, err := acpagents.Find(name)
	if err != nil {
		t.Fatal(err)
	}
	acpagents.Need(t, ag)
	e := newRemoteEnvWith(t, "echo")
	d, err := acpagents.NewDirs(filepath.Join(e.srv.Home, "agent"))
	if err != nil {
		t.Fatal(err)
	}
	model := fakemodel.New(ag.Provider, respond(ag, e))
	t.Cleanup(model.Close)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("model requests:\n%s", model.Summary())
			dump := os.Getenv("CHIPCHAT_RR_DUMP") // a directory for the raw requests, when debugging
			for i, x := range model.Exchanges() {
				if dump != "" {
					_ = os.WriteFile(filepath.Join(dump, fmt.Sprintf("%s-%02d.json", name, i)), x.Raw, 0o644)
				}
				t.Logf("exchange %d: last user text %q, tools %v, results %v", i, clipText(x.LastUserText(), 300), x.Tools, x.LastToolResults())
			}
		}
	})
	extra, err := ag.Setup(d, model.URL)
	if err != nil {
		t.Fatal(err)
	}
	if ag.Name == "opencode" {
		// opencode sends a model images only when its config says the
		// model takes them (acpagents' fake model does not).
		conf := filepath.Join(d.Config, "opencode", "opencode.json")
		b, err := os.ReadFile(conf)
		if err != nil {
			t.Fatal(err)
		}
		const from = `"fake-model": {"name": "Fake Model", "tool_call": true,`
		if !strings.Contains(string(b), from) {
			t.Fatalf("opencode.json has no %s:\n%s", from, b)
		}
		writeFile(t, conf, strings.Replace(string(b), from, from+` "attachment": true, "modalities": {"input": ["text", "image"], "output": ["text"]},`, 1))
	}
	agentCmd := "exec env -i"
	for _, kv := range d.Env(extra) {
		agentCmd += " " + shellQuote(kv)
	}
	for _, arg := range ag.Argv {
		agentCmd += " " + shellQuote(arg)
	}
	writeFile(t, filepath.Join(e.local, "shot.png"), string(pngBytes))
	for _, f := range prepare {
		f(e)
	}
	s := startTmuxSize(t, e.command(t, "--remote", "box", "--agent", shellQuote("acp:"+agentCmd)), 160, 50)
	s.waitWithin(time.Minute, "enter send")
	return &remoteReal{remoteEnv: e, ag: ag, model: model, s: s}
}

func clipText(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// testPNG is a valid 3x2 PNG (an agent may decode the image it is sent).
func testPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	for x := range 3 {
		for y := range 2 {
			img.Set(x, y, color.RGBA{uint8(80 * x), uint8(120 * y), 200, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// waitExchange polls the model's requests of the conversation (those
// that offer tools: not a title's) until one satisfies ok, for at most
// remoteRealTurn, and returns it.
func (r *remoteReal) waitExchange(t *testing.T, what string, ok func(*fakemodel.Exchange) bool) *fakemodel.Exchange {
	t.Helper()
	deadline := time.Now().Add(remoteRealTurn)
	for {
		changed := r.model.Changed()
		for _, x := range r.model.Exchanges() {
			if len(x.Tools) > 0 && ok(x) { // the conversation's, not a side request (a title)
				return x
			}
		}
		select {
		case <-changed:
		case <-time.After(time.Until(deadline)):
			t.Fatalf("no model request %s; the screen:\n%s", what, r.s.screen())
		}
	}
}

// send types text (after whatever the composer holds), sends it and
// waits for reply on the screen and the turn's end.
// A permission prompt on the way is answered with enter (allow once).
func (r *remoteReal) send(t *testing.T, text, reply string) string {
	t.Helper()
	r.s.text(text)
	r.s.keys("Enter")
	for deadline := time.Now().Add(remoteRealTurn); ; time.Sleep(100 * time.Millisecond) {
		scr := r.s.screen()
		if strings.Contains(scr, reply) {
			break
		}
		if strings.Contains(scr, "RR-NO-") {
			t.Fatalf("the fake model could not go on:\n%s", scr)
		}
		if strings.Contains(scr, "The agent asks") && strings.Contains(scr, "the agent waits") {
			r.s.keys("Enter")
			r.s.waitUntil("the prompt answered", func(scr string) bool { return !strings.Contains(scr, "the agent waits") })
			continue
		}
		if time.Now().After(deadline) {
			t.Fatalf("the screen never showed %q:\n%s", reply, scr)
		}
	}
	return r.s.waitIdle(remoteRealTurn)
}

// attach attaches the local file name (relative to the start directory)
// with ctrl+o.
func (r *remoteReal) attach(name string) {
	r.s.keys("C-o")
	r.s.waitFor("Attach a file")
	r.s.text(name)
	r.s.keys("Enter")
	r.s.waitFor("attached " + name)
}

// imagesIn lists the bytes of every base64 image a model request body
// carries: Anthropic's {"type":"base64","data":…} sources and the data:
// URLs of OpenAI's image_url parts.
func imagesIn(raw []byte) [][]byte {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	var out [][]byte
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if x["type"] == "base64" {
				if s, ok := x["data"].(string); ok {
					if b, err := base64.StdEncoding.DecodeString(s); err == nil {
						out = append(out, b)
					}
				}
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		case string:
			if rest, ok := strings.CutPrefix(x, "data:"); ok {
				if _, data, ok := strings.Cut(rest, ";base64,"); ok {
					if b, err := base64.StdEncoding.DecodeString(data); err == nil {
						out = append(out, b)
					}
				}
			}
		}
	}
	walk(v)
	return out
}

// hasImage reports whether the request carries an image of exactly want.
func hasImage(x *fakemodel.Exchange, want []byte) bool {
	for _, b := range imagesIn(x.Raw) {
		if bytes.Equal(b, want) {
			return true
		}
	}
	return false
}

// imageMentionPwd sends a message with an @ mention of only-remote.txt
// (a file that exists only on the remote) and shot.png attached as an
// image chip (ctrl+o): the model's request carries the image with
// exactly pngBytes, and the mention's path, and the agent's read of that
// path (its own tool, on the remote) returns the remote content. Then
// !pwd prints the remote path.
func (r *remoteReal) imageMentionPwd(t *testing.T, pngBytes []byte, words string) {
	t.Helper()
	s := r.s
	s.text("look at ")
	s.pickFile("only-rem", "only-remote.txt")
	s.keys("Enter")
	s.text("and ")
	r.attach("shot.png")
	r.send(t, rrImage+" "+words, rrDone(rrImage))
	x := r.waitExchange(t, "of the image turn", func(x *fakemodel.Exchange) bool { return rrLastUserMark(x) == rrImage })
	if !hasImage(x, pngBytes) {
		t.Errorf("the model request carries no image of shot.png's %d bytes (images: %d)", len(pngBytes), len(imagesIn(x.Raw)))
	}
	if !strings.Contains(rrUserText(x), "only-remote.txt") {
		t.Errorf("the mention is not in the model request:\n%s", rrUserText(x))
	}
	x = r.waitExchange(t, "with the read's result", func(x *fakemodel.Exchange) bool {
		return rrLastUserMark(x) == rrImage && len(x.LastToolResults()) > 0
	})
	if res := x.LastToolResults(); !strings.Contains(res[len(res)-1].Output, "remote secret 42") {
		t.Errorf("the agent's read of the mentioned file did not return the remote content: %+v", res)
	}

	s.text("!")
	s.waitFor("! shell mode")
	s.text("pwd")
	s.keys("Enter")
	s.waitForRow(r.proj)
	s.waitForComposer("Shell 1 lines")
	s.keys("C-c")
	s.waitFor("draft cleared")
}

// Markers of the scripted fake model's turns.
const (
	rrImage   = "RR-IMAGE-AT"
	rrReview  = "RR-REVIEW"
	rrRead    = "RR-THREAD-READ"
	rrHang    = "RR-HANG"
	rrResume  = "RR-RESUME"
	rrBinary1 = "RR-BINARY-ONE"
	rrBinary2 = "RR-BINARY-TWO"
	rrNote    = "RR-NOTE"
	rrWords   = "kumquat-orbit-17" // thread A's words that t3_thread_read must return
)

// rrUserText is the request's newest user text that is not a tool
// result (Claude Code puts text beside its tool results: "Tool loaded.").
func rrUserText(x *fakemodel.Exchange) string {
	for i := len(x.Messages) - 1; i >= 0; i-- {
		m := x.Messages[i]
		if m.Role == "user" && len(m.ToolResults) == 0 && strings.TrimSpace(m.Text) != "" {
			return m.Text
		}
	}
	return ""
}

// rrLastUserMark is the last marker of rrUserText.
func rrLastUserMark(x *fakemodel.Exchange) string {
	text := rrUserText(x)
	best, at := "", -1
	for _, mk := range []string{rrImage, rrReview, rrRead, rrHang, rrResume, rrBinary1, rrBinary2, rrNote} {
		if j := strings.LastIndex(text, mk); j > at {
			best, at = mk, j
		}
	}
	return best
}

// rrLastCall is the name of the model's last tool call after the newest
// user text ("" when it made none).
func rrLastCall(x *fakemodel.Exchange) string {
	for i := len(x.Messages) - 1; i >= 0; i-- {
		m := x.Messages[i]
		if m.Role == "user" && len(m.ToolResults) == 0 && strings.TrimSpace(m.Text) != "" {
			return ""
		}
		if n := len(m.ToolCalls); n > 0 {
			return m.ToolCalls[n-1].Name
		}
	}
	return ""
}

// rrDone is the reply text of a marker's turn.
func rrDone(mark string) string { return mark + "-DONE" }

// rrResponder answers each marker with its done text; rrImage first
// reads the mentioned remote-only file with the agent's own read tool
// (an ACP agent gets a mention as its path: it has file tools of its
// own); rrRead calls tool (the thread id after the marker as its
// threadId) once, loading it with ToolSearch first where the agent
// defers it (Claude Code), then answers; rrHang streams text and stalls
// until the client goes away.
func rrResponder(tool string) func(acpagents.Agent, *remoteEnv) fakemodel.Responder {
	return func(ag acpagents.Agent, e *remoteEnv) fakemodel.Responder {
		read := ag.Edit(filepath.Join(e.proj, "only-remote.txt"), "", "")[0] // the read before an edit
		return func(x *fakemodel.Exchange) fakemodel.Reply { return rrReply(x, tool, read) }
	}
}

func rrReply(x *fakemodel.Exchange, tool string, read fakemodel.ToolCall) fakemodel.Reply {
	mark := rrLastUserMark(x)
	switch mark {
	case "":
		return fakemodel.Reply{Text: "ok"}
	case rrImage:
		switch {
		case rrLastCall(x) == read.Name:
			return fakemodel.Reply{Text: rrDone(mark)}
		case !x.HasTool(read.Name):
			return fakemodel.Reply{Text: "ok"} // a side request (a title)
		}
		return fakemodel.Reply{Text: "Reading the mentioned file.", ToolCalls: []fakemodel.ToolCall{read}}
	case rrHang:
		return fakemodel.Reply{Text: "RR-STALLING now", Hold: true}
	case rrRead:
		last := rrLastCall(x)
		if last == tool && len(x.LastToolResults()) > 0 {
			return fakemodel.Reply{Text: rrDone(mark)}
		}
		if !x.HasTool(tool) {
			switch {
			case len(x.Tools) == 0:
				return fakemodel.Reply{Text: "ok"} // a side request (a title)
			case x.HasTool("ToolSearch") && last == "":
				// Claude Code defers MCP tools: their schemas are
				// loaded by ToolSearch first.
				in, _ := json.Marshal(map[string]any{"query": "select:" + tool, "max_results": 1})
				return fakemodel.Reply{Text: "Loading the tool.", ToolCalls: []fakemodel.ToolCall{{Name: "ToolSearch", Input: in}}}
			}
			return fakemodel.Reply{Text: "RR-NO-TOOL " + tool}
		}
		text := rrUserText(x)
		if i := strings.LastIndex(text, rrRead); i >= 0 {
			text = text[i+len(rrRead):]
		}
		id := strings.Fields(text)
		if len(id) == 0 {
			return fakemodel.Reply{Text: "RR-NO-ID"}
		}
		in, _ := json.Marshal(map[string]any{"threadId": id[0]})
		return fakemodel.Reply{Text: "Reading the thread.", ToolCalls: []fakemodel.ToolCall{{Name: tool, Input: in}}}
	}
	return fakemodel.Reply{Text: rrDone(mark)}
}

// Claude Code on the remote, in one session: a local PNG attached as an
// image chip reaches the model with exactly its bytes; an @ mention of a
// file that exists only on the remote reaches it as the file's name (an
// ACP agent has file tools of its own), and Claude Code's Read of it
// there returns its content; !pwd prints the remote path; a review comment on the remote work tree's diff
// reaches the model; the model's t3_thread_read (chipchat's MCP tool,
// forwarded to the remote) returns the other thread's text; the master
// killed mid-turn ends that turn, and the next turn resumes the agent's
// session with the earlier turns in the model's request.
func TestEndToEndRemoteRealClaude(t *testing.T) {
	pngBytes := testPNG(t)
	const tool = "mcp__chipchat__t3_thread_read"
	r := startRemoteReal(t, "claude", rrResponder(tool), pngBytes, func(e *remoteEnv) {
		gitRepo(t, e.proj, map[string]string{"app.py": reviewBefore})
		writeFile(t, filepath.Join(e.proj, "app.py"), reviewAfter)
	})
	s := r.s

	r.imageMentionPwd(t, pngBytes, rrWords)

	// (d) a review comment on the remote diff.
	s.text("/review")
	s.keys("Enter")
	s.waitFor("Review  Working tree vs HEAD", "app.py", "+     return 10", "review: v select")
	s.keys("j", "v", "j")
	s.waitFor("2 lines selected")
	s.keys("c")
	s.waitFor("review comment: enter adds its chip")
	s.text("why ten on the remote?")
	s.keys("Enter")
	s.waitFor("review comment app.py L2 added to the composer")
	s.keys("Escape")
	s.waitFor("✎ app.py L2", "enter send")
	r.send(t, "please fix "+rrReview, rrDone(rrReview))
	x := r.waitExchange(t, "of the review turn", func(x *fakemodel.Exchange) bool { return rrLastUserMark(x) == rrReview })
	for _, want := range []string{"why ten on the remote?", "file: app.py", "+    return 10"} {
		if !strings.Contains(rrUserText(x), want) {
			t.Errorf("the review comment's %q is not in the model request:\n%s", want, rrUserText(x))
		}
	}

	r.threadReadAndReconnect(t, tool, rrDone(rrReview))
	s.keys("C-q")
	s.waitFor("EXITED=0")
}

// threadReadAndReconnect opens a new thread (the screen no longer shows
// gone), where the model calls tool, chipchat's t3_thread_read as the
// agent names it, on the thread that holds rrWords: the result in the
// next request holds them. Then the master is killed mid-turn: the turn
// ends saying the connection dropped, chipchat logs in again by itself,
// and the next turn's request holds the thread's earlier turn (the
// agent's session, loaded again) and its reply arrives.
func (r *remoteReal) threadReadAndReconnect(t *testing.T, tool, gone string) {
	t.Helper()
	s := r.s
	// (e) t3_thread_read from a new thread reads the first one.
	id := remoteThreadID(t, r.remoteEnv, rrWords)
	s.keys("C-n")
	s.waitUntil("a new thread", func(scr string) bool { return !strings.Contains(scr, gone) })
	r.send(t, rrRead+" "+id+" ", rrDone(rrRead))
	x := r.waitExchange(t, "with t3_thread_read's result", func(x *fakemodel.Exchange) bool {
		return rrLastUserMark(x) == rrRead && rrLastCall(x) == tool && len(x.LastToolResults()) > 0
	})
	if res := x.LastToolResults(); res[0].IsError || !strings.Contains(res[0].Output, rrWords) {
		t.Errorf("t3_thread_read's result does not hold the other thread's words: %+v", res)
	}

	// (f) the master killed mid-turn; the next turn resumes.
	before := len(r.model.Exchanges())
	s.text(rrHang + " wait here")
	s.keys("Enter")
	s.waitWithin(remoteRealTurn, "RR-STALLING now")
	logins := r.srv.Logins()
	r.srv.KillMaster(t, filepath.Join(r.run, "chipchat-ssh", "%C"))
	// The turn ends, saying why in words (not ssh's bare 255).
	s.waitWithin(remoteRealTurn, "the connection to "+sshtest.HostAlias+" dropped while the agent ran")
	s.waitIdle(remoteRealTurn)
	s.waitUntil("the header without reconnecting", func(scr string) bool {
		head, _, _ := strings.Cut(scr, "\n")
		return !strings.Contains(head, "reconnecting to")
	})
	r.send(t, rrResume+" go on", rrDone(rrResume))
	x = r.waitExchange(t, "of the resumed turn", func(x *fakemodel.Exchange) bool { return rrLastUserMark(x) == rrResume })
	// The resumed turn ran over a new master: sshd logged a new login.
	// Its log comes through a pipe, behind the connection itself (CI once
	// read it the moment the screen went idle, before the line came).
	for deadline := time.Now().Add(10 * time.Second); r.srv.Logins() <= logins; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Errorf("no new login after the master was killed (%d, %d before)", r.srv.Logins(), logins)
			break
		}
	}
	all := strings.Join(x.UserTexts(), "\n")
	if !strings.Contains(all, rrRead+" "+id) {
		t.Errorf("the resumed turn's request lacks the thread's earlier turn (%d requests before the hang):\n%s", before, all)
	}
	t.Logf("the resumed turn: %d user texts, chipchat's <thread_history> in them: %v", len(x.UserTexts()), strings.Contains(all, "<thread_history>"))
}

// opencode on the remote: a local PNG's bytes, an @ mention of a
// remote-only file read there, !pwd there; a 15 MB binary chip is staged
// on the remote (~/.cache/chipchat/att/<sha256>/<name>, the same bytes)
// and sent as a resource_link to that path, which opencode reads; sent
// again, nothing is uploaded (the staged file is the same file,
// untouched).
func TestEndToEndRemoteRealOpencode(t *testing.T) {
	pngBytes := testPNG(t)
	blob := make([]byte, 15<<20) // the 15 MB binary chip
	if _, err := rand.Read(blob); err != nil {
		t.Fatal(err)
	}
	r := startRemoteReal(t, "opencode", rrResponder("chipchat_t3_thread_read"), pngBytes, func(e *remoteEnv) {
		writeFile(t, filepath.Join(e.local, "blob.bin"), string(blob))
	})
	s := r.s

	r.imageMentionPwd(t, pngBytes, "")

	sum := sha256.Sum256(blob)
	staged := filepath.Join(r.srv.Home, ".cache", "chipchat", "att", hex.EncodeToString(sum[:]), "blob.bin")
	// opencode turns a file:// link into a file part of its MIME type,
	// reads the file there into it, and its OpenAI-compatible provider
	// takes no application/octet-stream part: the turn fails in opencode,
	// after the link reached it (as a local binary chip's embedded blob
	// does). Its session store holds the staged path it read.
	const refused = "file part media type application/octet-stream' functionality not supported"
	r.attach("blob.bin")
	s.text("the blob " + rrBinary1)
	s.keys("Enter")
	s.waitWithin(remoteRealTurn, refused)
	s.waitIdle(remoteRealTurn)
	if b, err := os.ReadFile(staged); err != nil || !bytes.Equal(b, blob) {
		t.Fatalf("the staged copy on the remote: %d bytes, %v", len(b), err)
	}
	if store := filepath.Join(r.srv.Home, "agent"); !treeHolds(t, store, staged) {
		var files []string
		_ = filepath.WalkDir(store, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, p)
			}
			return nil
		})
		t.Errorf("opencode's files do not hold the staged path %s: %q", staged, files)
	}
	fi1 := statOf(t, staged)

	r.attach("blob.bin")
	s.text("again " + rrBinary2)
	s.keys("Enter")
	for deadline := time.Now().Add(remoteRealTurn); strings.Count(s.screen(), refused) < 2; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the second send never ended as the first:\n%s", s.screen())
		}
	}
	s.waitIdle(remoteRealTurn)
	if fi2 := statOf(t, staged); fi2 != fi1 {
		t.Errorf("the staged file changed on the second send (uploaded again): %+v, then %+v", fi1, fi2)
	}
	s.keys("C-q")
	s.waitFor("EXITED=0")
}

// treeHolds reports whether a file under root holds s.
func treeHolds(t *testing.T, root, s string) bool {
	t.Helper()
	found := false
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || found {
			return nil
		}
		if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte(s)) {
			found = true
		}
		return nil
	})
	return found
}

// fileStamp is what an upload changes: staging writes a part file and
// renames it into place (a new inode), with a new modification time.
type fileStamp struct {
	ino   uint64
	mtime int64
	size  int64
}

func statOf(t *testing.T, p string) fileStamp {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		t.Fatalf("no stat_t for %s", p)
	}
	return fileStamp{ino: st.Ino, mtime: fi.ModTime().UnixNano(), size: fi.Size()}
}

// opencode on the remote: the model's chipchat_t3_thread_read (chipchat's
// MCP tool, forwarded to the remote) returns the other thread's text; the
// master killed mid-turn ends that turn, and the next turn resumes
// opencode's session.
func TestEndToEndRemoteRealOpencodeThreadsAndReconnect(t *testing.T) {
	r := startRemoteReal(t, "opencode", rrResponder("chipchat_t3_thread_read"), testPNG(t))
	r.send(t, rrNote+" remember "+rrWords, rrDone(rrNote))
	r.threadReadAndReconnect(t, "chipchat_t3_thread_read", rrDone(rrNote))
	r.s.keys("C-q")
	r.s.waitFor("EXITED=0")
}

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chipchat/chipchat/internal/vtscreen"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// The golden screens of the whole app: built by newApp as the binary
// builds it (a temp data dir, a temp project, the fake ACP agent of
// TestGoldenAgentProcess), driven by keys in a virtual terminal, and
// compared, text and looks, with testdata/screens/app-*.golden at 80×24
// and 120×40; the same screens under [ui] theme = "light" with
// app-light-*.golden, text, looks and each cell's colours. go test -run
// TestGoldenScreens -update rewrites them; review the diff.
func TestGoldenScreens(t *testing.T) {
	for _, sc := range goldenScreens {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			name := fmt.Sprintf("app-%s-%dx%d", sc.name, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				g := newGoldenEnv(t)
				if sc.prepare != nil {
					sc.prepare(t, g)
				}
				s := g.start(t, size[0], size[1])
				sc.drive(s)
				s.Golden(name, sc.masks...)
			})
			light := fmt.Sprintf("app-light-%s-%dx%d", sc.name, size[0], size[1])
			t.Run(light, func(t *testing.T) {
				g := newGoldenEnv(t)
				if sc.prepare != nil {
					sc.prepare(t, g)
				}
				s := g.startThemed(t, "light", size[0], size[1])
				sc.drive(s)
				s.GoldenColours(light, sc.masks...)
			})
		}
	}
}

var goldenScreens = []struct {
	name    string
	prepare func(t *testing.T, g *goldenEnv)
	drive   func(s *vtscreen.Screen)
	masks   []func(string) string
}{
	{name: "idle", drive: func(s *vtscreen.Screen) {
		s.WaitForText("enter send")
		s.Type("What does this project do?")
		s.Send(vtscreen.Key("enter"))
		waitIdle(s, "terminal chat client")
		s.Type("Where does it start?")
		s.Send(vtscreen.Key("enter"))
		waitIdle(s, "reads the flags")
	}},
	{name: "streaming", drive: func(s *vtscreen.Screen) {
		s.WaitForText("enter send")
		s.Type("Stream a long answer")
		s.Send(vtscreen.Key("enter"))
		s.WaitFor(func(text string) bool {
			return strings.Contains(text, "the tokenizer") && strings.Contains(text, "replying")
		})
	}},
	{name: "permission", drive: func(s *vtscreen.Screen) {
		s.WaitForText("enter send")
		s.Type("Edit app.py")
		s.Send(vtscreen.Key("enter"))
		s.WaitForText("Allow once")
	}},
	{name: "review", prepare: func(t *testing.T, g *goldenEnv) {
		gitRepo(t, g.proj, map[string]string{"app.py": reviewBefore, "lib/util.py": "X = 1\n"})
		writeFile(t, filepath.Join(g.proj, "app.py"), reviewAfter)
		writeFile(t, filepath.Join(g.proj, "lib/util.py"), "X = 2\nY = 3\n")
	}, drive: func(s *vtscreen.Screen) {
		s.WaitForText("enter send")
		s.Send(vtscreen.Key("alt+g"))
		s.WaitForText("return 10")
		waitColoured(s, "def a():") // the files are lexed in the background, drawn plain until then
		waitSyntax(s, "= 2")        // the second file's too (its "=": the light golden has the colours)
	}},
	{name: "threads", prepare: seedThreads, drive: func(s *vtscreen.Screen) {
		s.WaitForText("enter send")
		s.Send(vtscreen.Key("ctrl+l"))
		s.WaitForText("Why is the build slow?")
	}, masks: []func(string) string{maskThreadIDs, maskDates}},
	{name: "help", drive: func(s *vtscreen.Screen) {
		s.WaitForText("enter send")
		s.Send(vtscreen.Key("f1"))
		s.WaitForText("Everywhere:")
	}},
	{name: "slash", drive: func(s *vtscreen.Screen) {
		s.WaitForText("enter send")
		s.Type("/")
		s.WaitForText("review")
	}},
}

// waitColoured waits until the first character of code on the screen has
// a colour of its own (its syntax colour has arrived).
func waitColoured(s *vtscreen.Screen, code string) {
	s.WaitFor(func(text string) bool {
		rows, looks := strings.Split(text, "\n"), strings.Split(s.Attrs(), "\n")
		for y, row := range rows {
			if x := strings.Index(row, code); x >= 0 && y < len(looks) {
				x = utf8.RuneCountInString(row[:x])
				look := []rune(looks[y])
				return x < len(look) && look[x] != ' '
			}
		}
		return false
	})
}

// waitSyntax waits until the first character of code on the screen has a
// foreground colour (on a diff line its background is there before).
func waitSyntax(s *vtscreen.Screen, code string) {
	s.WaitFor(func(text string) bool {
		for y, row := range strings.Split(text, "\n") {
			if x := strings.Index(row, code); x >= 0 {
				c := s.CellAt(utf8.RuneCountInString(row[:x]), y)
				return c != nil && c.Style.Fg != nil
			}
		}
		return false
	})
}

// waitIdle waits for text and for the turn and its reply to be over.
func waitIdle(s *vtscreen.Screen, text string) {
	s.WaitFor(func(scr string) bool {
		return strings.Contains(scr, text) && !strings.Contains(scr, "streaming") && !strings.Contains(scr, "replying") &&
			!strings.Contains(scr, "starting") && !strings.Contains(scr, "sending")
	})
}

const goldenConfigHome = "/nonexistent/chipchat-golden/config"

// goldenEnv is one screen's surroundings, all under a temp dir: the
// project, the data dir, a home, and the fake agent as acp:fake-agent;
// the config file does not exist.
type goldenEnv struct {
	proj, data, home, agent string
}

func newGoldenEnv(t *testing.T) *goldenEnv {
	root := t.TempDir()
	g := &goldenEnv{proj: filepath.Join(root, "proj"), data: filepath.Join(root, "data"), home: filepath.Join(root, "home")}
	for _, d := range []string{g.proj, g.home, filepath.Join(root, "tmp"), filepath.Join(root, "run"), filepath.Join(root, "bin")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	// Nothing of the user's: no config, state, runtime dir or temp files.
	t.Setenv("HOME", g.home)
	// F1 shows the config file's path: a fixed one, which does not exist.
	t.Setenv("XDG_CONFIG_HOME", goldenConfigHome)
	t.Setenv("XDG_STATE_HOME", filepath.Join(g.home, ".local", "state"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(g.home, ".local", "share"))
	t.Setenv("XDG_RUNTIME_DIR", filepath.Join(root, "run"))
	t.Setenv("TMPDIR", filepath.Join(root, "tmp"))
	t.Setenv(goldenAgentEnv, "1")
	// The agent is this test binary under a fixed name: the header shows
	// "agent acp:fake-agent".
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(root, "bin", "fake-agent")
	if err := os.Symlink(self, bin); err != nil {
		t.Fatal(err)
	}
	g.agent = "acp:" + bin + " -test.run=^TestGoldenAgentProcess$"
	return g
}

// goldenClock stands still at goldenNow (the status line's elapsed time,
// the spinner, tool calls' times); its timers are real.
type goldenClock struct{}

var goldenNow = time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)

func (goldenClock) Now() time.Time { return goldenNow }
func (goldenClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

// start builds the app with newApp and runs it in a w×h terminal.
func (g *goldenEnv) start(t *testing.T, w, h int) *vtscreen.Screen {
	t.Helper()
	app, closeAll, err := newApp(flags{dataDir: g.data, agent: g.agent},
		appEnv{cwd: g.proj, home: g.home, configPath: filepath.Join(goldenConfigHome, "chipchat", "config.toml"), clock: goldenClock{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeAll) // after the program quits (cleanups run last first)
	return vtscreen.New(t, app, w, h)
}

// seedThreads stores four threads of the project, the last one the newest.
func seedThreads(t *testing.T, g *goldenEnv) {
	st, err := store.Open(g.data)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := st.Project(store.ProjectKey(g.proj))
	if err != nil {
		t.Fatal(err)
	}
	for _, title := range []string{"Add a --json flag to the codec", "Why is the build slow?", "Rename the store package", "Fix the flaky test in chat"} {
		th := st.NewThread(p.ID)
		if _, err := st.AddMessage(store.Message{ThreadID: th.ID, Role: message.RoleUser, Text: title}); err != nil {
			t.Fatal(err)
		}
	}
}

// The store mints random thread ids and stamps real times; the list's
// masks put placeholders of the same width in their place, numbered in
// screen order.
var (
	threadIDRe = regexp.MustCompile(`thr_[0-9a-f]{16}`)
	dateRe     = regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d`)
)

func maskThreadIDs(text string) string {
	seen := map[string]string{}
	return threadIDRe.ReplaceAllStringFunc(text, func(id string) string {
		if m, ok := seen[id]; ok {
			return m
		}
		m := "thr_" + fmt.Sprintf("%016d", len(seen)+1)
		seen[id] = m
		return m
	})
}

func maskDates(text string) string { return dateRe.ReplaceAllString(text, "2026-01-02 15:04") }

const goldenAgentEnv = "CHIPCHAT_GOLDEN_AGENT"

// TestGoldenAgentProcess is the fake ACP agent of the golden screens; it
// does nothing in a normal run. A prompt about streaming gets a first
// chunk and then nothing until it is cancelled; one asking to edit gets an
// edit of app.py awaiting permission; the others get canned answers.
func TestGoldenAgentProcess(t *testing.T) {
	if os.Getenv(goldenAgentEnv) != "1" {
		return
	}
	ag := &goldenAgent{cwd: map[acp.SessionId]string{}}
	conn := acp.NewAgentSideConnection(ag, os.Stdout, os.Stdin)
	ag.conn = conn
	<-conn.Done()
	os.Exit(0)
}

// goldenAgent answers the methods chipchat calls; the others (never
// called: their capabilities are not announced) come from the nil
// embedded interface.
type goldenAgent struct {
	acp.Agent
	conn *acp.AgentSideConnection
	cwd  map[acp.SessionId]string
	n    int
}

func (f *goldenAgent) Initialize(context.Context, acp.InitializeRequest) (acp.InitializeResponse, error) {
	return acp.InitializeResponse{ProtocolVersion: acp.ProtocolVersionNumber, AuthMethods: []acp.AuthMethod{},
		AgentInfo: &acp.Implementation{Name: "fake-agent", Version: "1"}}, nil
}

func (f *goldenAgent) Authenticate(context.Context, acp.AuthenticateRequest) (acp.AuthenticateResponse, error) {
	return acp.AuthenticateResponse{}, nil
}

func (f *goldenAgent) NewSession(_ context.Context, p acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	f.n++
	id := acp.SessionId("s" + strconv.Itoa(f.n))
	f.cwd[id] = p.Cwd
	return acp.NewSessionResponse{SessionId: id}, nil
}

func (f *goldenAgent) Cancel(context.Context, acp.CancelNotification) error { return nil }

func (f *goldenAgent) SetSessionMode(context.Context, acp.SetSessionModeRequest) (acp.SetSessionModeResponse, error) {
	return acp.SetSessionModeResponse{}, nil
}

const (
	goldenAnswer1 = "It is a **terminal chat client** for coding agents. The composer holds inline chips: " +
		"typed references to files, images, terminal output and review comments, placed at an exact spot in the prose."
	goldenAnswer2 = "In `main.go`: `run` reads the flags, then `newApp` opens the store and the agent and builds the app.\n\n" +
		"```go\nfunc main() {\n\tos.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))\n}\n```\n"
)

func (f *goldenAgent) Prompt(ctx context.Context, p acp.PromptRequest) (acp.PromptResponse, error) {
	var text strings.Builder
	for _, c := range p.Prompt {
		if c.Text != nil {
			text.WriteString(c.Text.Text)
		}
	}
	say := func(u acp.SessionUpdate) {
		_ = f.conn.SessionUpdate(ctx, acp.SessionNotification{SessionId: p.SessionId, Update: u})
	}
	prompt := text.String()
	switch {
	case strings.Contains(prompt, "Stream"):
		say(acp.UpdateAgentMessageText("I am reading the parser first; after that, the tokenizer"))
		<-ctx.Done()
		return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
	case strings.Contains(prompt, "Edit"):
		// A fixed path, not the session's (temporary) directory: the
		// prompt shows it whole.
		path := "/src/proj/app.py"
		diff := []acp.ToolCallContent{acp.ToolDiffContent(path, reviewAfter, reviewBefore)}
		say(acp.StartToolCall("call_1", "Edit app.py", acp.WithStartKind(acp.ToolKindEdit), acp.WithStartStatus(acp.ToolCallStatusPending),
			acp.WithStartContent(diff)))
		_, err := f.conn.RequestPermission(ctx, acp.RequestPermissionRequest{
			SessionId: p.SessionId,
			ToolCall:  acp.ToolCallUpdate{ToolCallId: "call_1", Title: acp.Ptr("Edit app.py"), Kind: acp.Ptr(acp.ToolKindEdit), Content: diff},
			Options: []acp.PermissionOption{
				{OptionId: "allow", Name: "Allow once", Kind: acp.PermissionOptionKindAllowOnce},
				{OptionId: "always", Name: "Always allow", Kind: acp.PermissionOptionKindAllowAlways},
				{OptionId: "reject", Name: "Reject", Kind: acp.PermissionOptionKindRejectOnce},
			},
		})
		if err != nil {
			return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
		}
		return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
	case strings.Contains(prompt, "start"):
		say(acp.UpdateAgentMessageText(goldenAnswer2))
	default:
		say(acp.UpdateAgentMessageText(goldenAnswer1))
	}
	return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
}

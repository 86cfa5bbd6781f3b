// Command chipchat is a terminal chat client for coding agents whose composer
// holds inline chips: typed references to context placed at an exact spot in
// the Markdown prose (shared/DESIGN.md).
//
// `chipchat` opens the app for the current directory; `chipchat codec <op>`
// runs the pure wire-contract codecs of package contextref on stdin/stdout
// (see codec.go and README.md).
package main

import (
	"errors"
	"flag"
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/assets"
	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/clipboard"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/mcpserver"
	"github.com/chipchat/chipchat/store"
	"github.com/chipchat/chipchat/terminal"
	"github.com/chipchat/chipchat/ui"
	"github.com/chipchat/chipchat/ui/keymap"
	"github.com/chipchat/chipchat/workspace"
)

const usageHead = `chipchat - a terminal chat client for coding agents with inline context chips

Usage:
  chipchat [flags]          open the app for the current directory
  chipchat --remote TARGET  open a project on another machine over ssh
                            (see "Remote projects" in README.md)
  chipchat codec <op>       run a wire-contract codec on stdin, result on stdout
  chipchat export [--thread ID|--last] [--format md|json] [PATH]
                            write a thread as Markdown or JSON (--help: more)
  chipchat mcp [--data-dir DIR] [--project DIR]
                            serve chipchat's read-only MCP tools over stdio
                            (t3_thread_read, terminal_read; agents start it)
  chipchat help             print this help (also -h, --help)
  chipchat --version        print the version

Flags:
`

const usageTail = `
Environment:
  CHIPCHAT_HOME     data directory when --data-dir is not given
                    (default $XDG_DATA_HOME/chipchat, else ~/.local/share/chipchat)
  XDG_CONFIG_HOME   where chipchat/config.toml is read (default ~/.config)
  NO_COLOR          when set and non-empty, draw without colour
  VISUAL, EDITOR    the external editor of ctrl+g (default vi)
  CHIPCHAT_CPUPROFILE
                    write a CPU profile of the run to this path (read it
                    with go tool pprof)
  CHIPCHAT_MEMPROFILE
                    write a heap profile to this path as the app ends:
                    what the run allocated and what was still live
  CHIPCHAT_KEYTRACE write one line per key to this path: when the app got
                    it (Unix ns) and the µs until its frame was written
  CHIPCHAT_RENDERER=bubbletea
                    draw with Bubble Tea's renderer instead of chipchat's
                    own (which writes only the lines that changed)

Config file (%s), every setting optional:
  agent = "echo"                  # backend when --agent is not given
  openai_api_key = "sk-…"         # for openai: backends (else $OPENAI_API_KEY)
  [limits]
  attachment_bytes = 20971520     # largest file ctrl+o attaches
  composer_rows = 10              # rows the composer grows to, then scrolls
  scrollback = 10000              # lines of history per terminal
  excerpt_max_age = "24h"         # older terminal excerpts are dropped at send ("0": never)
  paste_chip_chars = 2000         # a longer paste becomes a pasted-text chip (-1: never)
  paste_chip_lines = 20           # so does one with more lines
  [notify]                        # a turn's end, an error, a question while unfocused
  on = ["turn_end", "question", "error"]
  method = "auto"                 # "osc9", "osc777", "bell" or "off"
  min_turn_seconds = 10           # without focus reports, shorter turns do not notify
  [keys]                          # rebind any key by name, e.g.:
  send = ["enter"]
  newline = ["shift+enter", "ctrl+j"]
  [remote]                        # projects opened with --remote
  timeout = "15s"                 # each remote command's bound (not the agent's)
  cache_bytes = 1073741824        # the remote attachment staging directory's budget
  ssh_config = "~/.ssh/other"     # passed as ssh -F (default: ssh's own config)
  [remotes.dev]                   # --remote dev
  target = "me@devbox:/srv/app"   # or ssh://me@devbox:2222/srv/app
  agent = "acp:claude-agent-acp"  # optional: the agent to run there
  [[mcp_servers]]                 # for acp: agents, besides chipchat mcp (one table each)
  name = "files"                  # stdio: command, args, env = { NAME = "value" }
  command = "npx"                 # http: url, headers = { Authorization = "Bearer …" }
  args = ["-y", "@modelcontextprotocol/server-filesystem", "."]

Keys (name, default keys, what they do):
%s
Codec ops: context-id, label, parse, project, decode, upgrade,
fragment-decode, fragment-html. Run "chipchat codec --help" for details.

Exit codes: 0 success; 1 a failure (store, config, codec input), with one
line on stderr; 2 a bad command line.
`

// memoryLimit is the soft limit the garbage collector works to (unless
// GOMEMLIMIT says otherwise), and gcPercent its pace (unless GOGC does):
// memory is bounded by what is on screen plus a small multiple of the
// largest payload (DESIGN.md 8), and at Go's default pace (100) the
// collector lets a 50 MB reply's garbage (its chunks as they are
// decoded) double the heap before it runs. Measured on the real binary
// (TestEndToEndFiftyMegabyteReply, VmHWM, 2 cores at load 5–7), with the
// reply's text in 64 KB pieces (message.TextBuf): 160 MiB and 50 peak at
// 128–134 MB, 160 MiB and 100 at about 137 MB (a 16 MB reply 87–90 MB
// and 95 MB). The extra collection is paid only while the heap is big: a
// small heap's collections are cheap at either pace.
const (
	memoryLimit = 160 << 20
	gcPercent   = 50
)

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// flags are the app's command-line options.
type flags struct {
	dataDir  string
	agent    string
	threadID string
	newTh    bool
	remote   string
}

func newFlagSet(f *flags, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("chipchat", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&f.dataDir, "data-dir", "", "keep the store and attachments in `DIR`")
	fs.StringVar(&f.agent, "agent", "", "the agent backend: `SPEC` — "+kindList())
	fs.StringVar(&f.threadID, "thread", "", "open the thread with this `ID`")
	fs.BoolVar(&f.newTh, "new", false, "start a new thread")
	fs.StringVar(&f.remote, "remote", "", "open the project at `TARGET` over ssh: [user@]host[:port]:/path, ssh://user@host:port/path or the name of a [remotes.NAME] entry")
	return fs
}

// kindList is agent's list of backends as help says it: "echo,
// exec:<command>, … or openai:<base-url>#<model>".
func kindList() string {
	specs := agent.KindSpecs()
	if i := strings.LastIndex(specs, ", "); i >= 0 {
		return specs[:i] + " or " + specs[i+2:]
	}
	return specs
}

func printUsage(w io.Writer) {
	var f flags
	fs := newFlagSet(&f, w)
	fmt.Fprint(w, usageHead)
	fs.PrintDefaults()
	appKeys, edKeys := keymap.DefaultAppKeys(), composer.DefaultKeyMap()
	fmt.Fprintf(w, usageTail, config.Path(), "  "+strings.Join(keymap.KeyHelp(&appKeys, &edKeys), "\n  ")+"\n")
}

// run is the whole command line; it returns the process exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "help", "-h", "-help", "--help":
			printUsage(stdout)
			return 0
		case "version", "-version", "--version":
			fmt.Fprintln(stdout, "chipchat "+versionString())
			return 0
		case "codec":
			return runCodec(args[1:], stdin, stdout, stderr)
		case "export":
			return runExport(args[1:], stdout, stderr) // exportcmd.go
		case mcpserver.Command:
			return mcpserver.Main(args[1:], stdin, stdout, stderr)
		case helperCommand:
			// internal: staged on a remote project, serves the agent's fs
			// and terminals there (remotehelper.go)
			return runHelper(args[1:], stdin, stdout, stderr)
		case clipboard.ServeCommand:
			// internal: hold the X11 clipboard after a copy (see clipboard)
			return clipboard.ServeMain(stdin, stderr)
		}
		if !strings.HasPrefix(args[0], "-") {
			fmt.Fprintf(stderr, "chipchat: unknown command %s (run \"chipchat --help\" for usage)\n", quoteArg(args[0]))
			return 2
		}
	}
	var f flags
	fs := newFlagSet(&f, io.Discard)
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "chipchat: %s (run \"chipchat --help\" for usage)\n", flagError(err, args))
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "chipchat: unexpected argument %s (run \"chipchat --help\" for usage)\n", quoteArg(fs.Arg(0)))
		return 2
	}
	if err := runApp(f); err != nil {
		fmt.Fprintf(stderr, "chipchat: %s\n", oneLine(err.Error()))
		return 1
	}
	return 0
}

// acpParts are what an acp: backend shares with the app: the host of its
// terminals (tabs of the terminal pane) and chipchat mcp's panes socket.
type acpParts struct {
	terms *terminal.AgentTerminals
	panes *mcpserver.Panes
	mcp   *remoteMCP // a remote agent's forwarded endpoint (remotemcp.go)
}

// newBackend builds the agent backend of spec. An acp: agent runs in the
// project directory (the git root of cwd, else cwd), its terminal/*
// commands in chipchat's terminal pane, and gets chipchat's own MCP server
// (chipchat mcp, reading dataDir's threads and, through the panes socket,
// the app's terminals) plus the config's [[mcp_servers]] in every session;
// its fs/write_text_file never reaches dataDir.
func newBackend(spec string, cfg config.Config, dataDir, cwd string, rp *remoteProject) (agent.Backend, acpParts, error) {
	kind, _, err := agent.KindOf(spec)
	if err != nil {
		return nil, acpParts{}, err
	}
	opts := agent.Options{OpenAIAPIKey: cfg.OpenAIAPIKey}
	if rp != nil {
		// A remote project's agent runs there, over the master, with
		// chipchat's tools served here over HTTP and forwarded there
		// (remotemcp.go), its client fs and terminals through chipchat's
		// helper there (remotehelper.go). The config's MCP servers are
		// this machine's: not offered there.
		opts.Host = remoteHost{rp}
		parts := acpParts{terms: rp.terms}
		opts.ACP = agent.ACPOptions{Dir: rp.Dir(), TerminalPolicy: cfg.ACP.Terminals, Terminals: remoteTerms{agentTerms{rp.terms}, rp}}
		if kind.Hosted {
			parts.panes, parts.mcp, opts.ACP.SessionMCPServers = remoteTools(rp, dataDir)
		}
		backend, err := agent.NewWith(spec, opts)
		if err != nil {
			parts.close()
			return nil, acpParts{}, err
		}
		return backend, parts, nil
	}
	if !kind.Hosted {
		backend, err := agent.NewWith(spec, opts)
		return backend, acpParts{}, err
	}
	project := store.ProjectKey(cwd)
	parts := acpParts{terms: terminal.NewAgentTerminals(cfg.Limits.Scrollback)}
	// Without the socket chipchat mcp still serves threads; its
	// terminal_read then says no app is reachable.
	if panes, err := openPanes(); err == nil {
		parts.panes = panes
	}
	servers, err := mcpServers(cfg, dataDir, project, parts.panes)
	if err != nil {
		if parts.panes != nil {
			_ = parts.panes.Close()
		}
		return nil, acpParts{}, err
	}
	opts.ACP = agent.ACPOptions{Dir: project, Terminals: agentTerms{parts.terms}, TerminalPolicy: cfg.ACP.Terminals, MCPServers: servers, Protect: []string{dataDir}}
	a, err := agent.NewWith(spec, opts)
	if err != nil {
		if parts.panes != nil {
			_ = parts.panes.Close()
		}
		return nil, acpParts{}, err
	}
	return a, parts, nil
}

// runApp opens the store and runs the terminal UI until the user quits.
func runApp(f flags) error {
	// What would fail later (a config error, an agent that cannot start)
	// is said now, in one line, terminal or not.
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	cfg, err := config.Load(config.Path(), keymap.CheckKeys)
	if err != nil {
		return err
	}
	isTerm := term.IsTerminal(os.Stdin.Fd()) && term.IsTerminal(os.Stdout.Fd())
	var rp *remoteProject
	if f.remote != "" {
		if rp, err = openRemote(f.remote, cfg); err != nil {
			return err
		}
		defer rp.close()
		if rp.ask != nil && !isTerm {
			return rp.ask.err // no terminal to answer ssh in
		}
	}
	spec, fromConfig := agentSpec(f, cfg, rp)
	switch {
	case rp != nil && rp.ask != nil:
		// ssh asks first, in a tab of the app (remotefirst.go); the
		// watch starts once connected.
		rp.watch(nil, rp.firstConnect(rp.terms, cfg.Limits.Scrollback, spec))
	case rp != nil:
		if err := checkRemoteAgent(rp, spec); err != nil {
			return err
		}
		rp.watch(nil, nil) // reconnects with backoff when the master ends (remotelink.go)
	default:
		err = checkAgent(spec, cfg, fromConfig, cwd)
	}
	if err != nil {
		return err
	}
	if !isTerm {
		return errors.New("the app needs a terminal (standard input and output are not one); run \"chipchat --help\" for usage or \"chipchat codec\" for the codecs")
	}
	home, _ := os.UserHomeDir()
	app, closeAll, err := newApp(f, appEnv{cwd: cwd, home: home, configPath: config.Path(), noColor: os.Getenv("NO_COLOR") != "", remote: rp,
		background: terminalBackground})
	if err != nil {
		return err
	}
	defer closeAll()
	// Large bracketed pastes are streamed to the asset store before Bubble
	// Tea parses them (ui.NewPasteFilter, package internal/paste).
	input, filter := app.NewPasteFilter(os.Stdin)
	var model tea.Model = app
	opts := []tea.ProgramOption{tea.WithInput(input), tea.WithFilter(filter)}
	var out io.Writer = os.Stdout
	if path := os.Getenv("CHIPCHAT_KEYTRACE"); path != "" {
		kt, err := openKeyTrace(path)
		if err != nil {
			return err
		}
		defer kt.Close()
		model = tracedModel{app, kt}
		out = tracedOut{os.Stdout, kt}
	}
	send := &lateSend{}
	if useBubbleTeaRenderer() {
		opts = append(opts, tea.WithOutput(out))
	} else {
		framed, fopts, t, err := openFrames(model, out, send)
		if err != nil {
			return err
		}
		defer t.Close()
		model, opts = framed, append(opts, fopts...)
	}
	if path := os.Getenv("CHIPCHAT_CPUPROFILE"); path != "" {
		stop, err := startCPUProfile(path)
		if err != nil {
			return err
		}
		defer stop()
	}
	if path := os.Getenv("CHIPCHAT_MEMPROFILE"); path != "" {
		stop, err := startMemProfile(path)
		if err != nil {
			return err
		}
		defer stop()
	}
	p := tea.NewProgram(model, opts...)
	input.SetSend(p.Send)
	send.set(p.Send)
	// SIGHUP, SIGTERM, SIGINT: the panes socket and pager files go at
	// once, then the program quits (app.Close ends the rest).
	defer catchSignals(p.Quit)()
	_, err = p.Run()
	if errors.Is(err, tea.ErrProgramKilled) {
		return nil
	}
	return err
}

// appEnv is what the app takes from the process besides its flags: the
// start directory, the home directory, the config file and NO_COLOR, and
// the clock. runApp reads them from the process; the golden screens give
// their own.
type appEnv struct {
	cwd, home, configPath string
	noColor               bool
	clock                 chat.Clock         // nil: the real one
	background            func() color.Color // [ui] theme "auto": the terminal's background (nil: dark)
	remote                *remoteProject     // the --remote project, connected (nil: the start directory's)
}

// agentSpec is the agent to run: --agent, else the [remotes.NAME] entry's
// agent of a remote project, else the config's (fromConfig).
func agentSpec(f flags, cfg config.Config, rp *remoteProject) (spec string, fromConfig bool) {
	switch {
	case f.agent != "":
		return f.agent, false
	case rp != nil && rp.agent != "":
		return rp.agent, false
	}
	return cfg.Agent, true
}

// newApp builds the app exactly as the binary runs it, from the flags, the
// config file, the data dir and the start directory: the backend, the
// store, the assets and the thread to open. closeAll ends what it opened,
// in order: the app (no shell outlives chipchat, however it ends), the
// store, the panes socket.
func newApp(f flags, env appEnv) (app *ui.App, closeAll func(), err error) {
	var closers []func()
	cleanup := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	defer func() {
		if err != nil {
			cleanup()
		}
	}()
	cfg, err := config.Load(env.configPath, keymap.CheckKeys)
	if err != nil {
		return nil, nil, err
	}
	spec, _ := agentSpec(f, cfg, env.remote)
	dir := f.dataDir
	if dir == "" {
		if dir, err = store.DefaultDir(); err != nil {
			return nil, nil, err
		}
	}
	removeStaleFiles() // pager files of chipchats killed (openPanes: their sockets)
	backend, acpUI, err := newBackend(spec, cfg, dir, env.cwd, env.remote)
	if err != nil {
		return nil, nil, err
	}
	if acpUI.panes != nil {
		closers = append(closers, func() { _ = acpUI.panes.Close() }) // also closed by app.Close; closing twice is harmless
	}
	if acpUI.mcp != nil {
		closers = append(closers, acpUI.mcp.close)
	}
	st, err := store.Open(dir)
	if err != nil {
		return nil, nil, err
	}
	closers = append(closers, func() { _ = st.Close() })
	// The app, through its panes socket, decides which threads chipchat
	// mcp may read: this project's and those the user attached in it.
	scopeKey := store.ProjectKey(env.cwd)
	if env.remote != nil {
		scopeKey = env.remote.Key()
	}
	acpUI.panes.SetThreads(st, scopeKey)
	// This data dir's environment, for pastes in other chipchat processes
	// that fetch images and files from it (best effort: a copy registers it
	// again).
	_ = clipboard.DefaultRegistry().Register(st.EnvironmentID(), st.Dir())
	as, err := assets.Open(filepath.Join(dir, "assets"), cfg.Limits.AttachmentBytes)
	if err != nil {
		return nil, nil, err
	}
	// The project directory is the git root of the start directory, else
	// the start directory, everywhere: threads, @ files, skills, the
	// terminal pane and ! commands.
	// A remote project's directory is the remote path, its key
	// ssh://host/path; everything local (store, assets, drafts) stays here.
	var proj workspace.Project = workspace.Local{Root: projectDir(env.cwd), Files: composer.ListFiles}
	if env.remote != nil {
		proj = env.remote
	}
	project := proj.Dir()
	ws, err := workspace.Open(workspace.Options{Store: st, Assets: as, Dir: project, Project: proj, Messages: chat.LoadThread,
		MaxAttachment: backend.Capabilities().MaxAttachment, AttachmentBytes: cfg.Limits.AttachmentBytes})
	if err != nil {
		return nil, nil, err
	}
	opened, err := ws.Start(f.threadID, f.newTh)() // before the first frame
	if err != nil {
		return nil, nil, err
	}
	history, err := ws.History()()
	if err != nil {
		return nil, nil, err
	}
	opt := ui.Options{Workspace: ws, Opened: opened, History: history}
	opt.Config, opt.Dir, opt.Home = cfg, project, env.home
	opt.NoColor, opt.Clock = env.noColor, env.clock
	opt.Config.UI.Theme = resolveTheme(cfg.UI.ThemeName(), env.noColor, env.background)
	if env.remote != nil {
		opt.AttachDir = env.cwd                             // ctrl+o attaches this machine's files
		opt.Review.Git.Exec = env.remote.reviewGit          // drivers off there too (remotegit.go)
		opt.Skills = env.remote.skills                      // the $ picker lists the remote's (remoteskills.go)
		opt.Review.PRTimeout = cfg.Remote.TimeoutDuration() // gh runs there too, over the master
	}
	opt.Chat = newChat(st, as, backend, ws.ProjectID(), opt, env.remote)
	opt.AgentTerminals, opt.Panes, opt.ExitFiles = acpUI.terms, acpUI.panes, exitFiles
	app = ui.New(opt)
	closers = append(closers, app.Close)
	return app, cleanup, nil
}

// projectDir is the project directory of the start directory cwd: its git
// root, else cwd itself (store.ProjectKey).
func projectDir(cwd string) string { return store.ProjectKey(cwd) }

// version is set at build time with -ldflags "-X main.version=v1.2.3";
// else the module version or the VCS revision the binary was built from.
var version = ""

func versionString() string {
	if version != "" {
		return version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown version)"
	}
	v := info.Main.Version
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+dirty"
			}
		}
	}
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		v += " (" + rev + modified + ")"
	}
	return v + " " + runtime.Version()
}

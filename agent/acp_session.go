package agent

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// ACPModelOption is the id of the config option that stands for the
// agent's models when it offers them through session/set_model rather than
// as a config option of its own.
const ACPModelOption = "_session/set_model"

// acpSession is what the agent told of one session: its modes, config
// options, models and commands, and whether it is being loaded. a.mu
// guards it.
type acpSession struct {
	id       string
	cwd      string
	loading  bool          // updates are a replay: drop them
	activity chan struct{} // cap 1: an update came while loading

	modes       *Modes
	config      []acp.SessionConfigOption
	models      *acp.SessionModelState
	commands    []Command
	hasCommands bool
	title       string     // from session_info_update
	replay      *acpReplay // collects the replay of a session being imported (ImportSession)

	dirtyModes, dirtyConfig, dirtyCommands, dirtyTitle bool
}

// acpSetting is a mode or config option to set.
type acpSetting struct {
	mode      bool
	id, value string
}

// session returns the state of sid, making it; a.mu must be held.
func (a *ACP) session(sid string) *acpSession {
	s := a.state[sid]
	if s == nil {
		s = &acpSession{id: sid, activity: make(chan struct{}, 1)}
		a.state[sid] = s
	}
	return s
}

// setInitial records the modes, config options and models of a session/new
// or session/load answer; a.mu must be held.
func (s *acpSession) setInitial(modes *acp.SessionModeState, config []acp.SessionConfigOption, models *acp.SessionModelState) {
	if modes != nil {
		m := acpModes(*modes)
		s.modes, s.dirtyModes = &m, true
	}
	if config != nil {
		s.config, s.dirtyConfig = config, true
	}
	if models != nil {
		s.models, s.dirtyConfig = models, true
	}
}

// stateUpdate applies an update about the session's state (not a replay of
// content); it reports whether u was one. a.mu must be held.
func (s *acpSession) stateUpdate(u acp.SessionUpdate) bool {
	if s.loading {
		s.collect(u)
	}
	switch {
	case u.AvailableCommandsUpdate != nil:
		s.commands = acpCommands(u.AvailableCommandsUpdate.AvailableCommands)
		s.hasCommands, s.dirtyCommands = true, true
	case u.CurrentModeUpdate != nil:
		if s.modes == nil {
			s.modes = &Modes{}
		}
		s.modes.Current = string(u.CurrentModeUpdate.CurrentModeId)
		s.dirtyModes = true
	case u.ConfigOptionUpdate != nil:
		s.config, s.dirtyConfig = u.ConfigOptionUpdate.ConfigOptions, true
	case u.SessionInfoUpdate != nil:
		if t := acpTitle(u.SessionInfoUpdate.Title); t != "" && t != s.title {
			s.title, s.dirtyTitle = t, true
		}
	default:
		return false
	}
	return true
}

// events is the session's state as events (all of it, or only what
// changed since the last call with dirtyOnly); a.mu must be held.
func (s *acpSession) events(dirtyOnly bool) []Event {
	var out []Event
	if s.modes != nil && (s.dirtyModes || !dirtyOnly) {
		m := *s.modes
		m.Available = append([]Mode(nil), m.Available...)
		out = append(out, m)
	}
	if (s.config != nil || s.models != nil) && (s.dirtyConfig || !dirtyOnly) {
		out = append(out, ConfigOptions{Options: acpConfigOptions(s.config, s.models)})
	}
	if s.hasCommands && (s.dirtyCommands || !dirtyOnly) {
		out = append(out, Commands{Commands: append([]Command(nil), s.commands...)})
	}
	if s.title != "" && (s.dirtyTitle || !dirtyOnly) {
		out = append(out, SessionTitle{Title: s.title})
	}
	s.dirtyModes, s.dirtyConfig, s.dirtyCommands, s.dirtyTitle = false, false, false, false
	return out
}

// flushState emits what changed in the session's state.
func (a *ACP) flushState(sid string, emit func(Event)) {
	a.mu.Lock()
	var evs []Event
	if s := a.state[sid]; s != nil {
		evs = s.events(true)
	}
	a.mu.Unlock()
	for _, e := range evs {
		emit(e)
	}
}

// SessionState is what is known of the thread's session: its Modes,
// ConfigOptions and Commands, as events (for a UI that wants them between
// turns, e.g. after SetConfigOption).
func (a *ACP) SessionState(threadID string) []Event {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.state[a.sessions[threadID]]
	if s == nil {
		return nil
	}
	d1, d2, d3, d4 := s.dirtyModes, s.dirtyConfig, s.dirtyCommands, s.dirtyTitle
	evs := s.events(false)
	s.dirtyModes, s.dirtyConfig, s.dirtyCommands, s.dirtyTitle = d1, d2, d3, d4
	return evs
}

func acpModes(m acp.SessionModeState) Modes {
	out := Modes{Current: string(m.CurrentModeId)}
	for _, x := range m.AvailableModes {
		d := ""
		if x.Description != nil {
			d = *x.Description
		}
		out.Available = append(out.Available, Mode{ID: string(x.Id), Name: x.Name, Description: d})
	}
	return out
}

func acpCommands(cs []acp.AvailableCommand) []Command {
	out := make([]Command, 0, len(cs))
	for _, c := range cs {
		hint := ""
		if c.Input != nil && c.Input.Unstructured != nil {
			hint = c.Input.Unstructured.Hint
		}
		out = append(out, Command{Name: c.Name, Description: c.Description, InputHint: hint})
	}
	return out
}

func acpStr(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// acpConfigOptions is the session's config options, plus the models as
// the ACPModelOption option when the agent offers them only through
// session/set_model. A boolean option has the values "true" and "false".
func acpConfigOptions(opts []acp.SessionConfigOption, models *acp.SessionModelState) []ConfigOption {
	out := []ConfigOption{}
	hasModel := false
	for _, o := range opts {
		switch {
		case o.Select != nil:
			s := o.Select
			c := ConfigOption{ID: string(s.Id), Name: s.Name, Current: string(s.CurrentValue)}
			if s.Category != nil {
				c.Category = string(*s.Category)
			}
			if u := s.Options.Ungrouped; u != nil {
				for _, v := range *u {
					c.Values = append(c.Values, ConfigValue{ID: string(v.Value), Name: v.Name, Description: acpStr(v.Description)})
				}
			}
			if g := s.Options.Grouped; g != nil {
				for _, grp := range *g {
					for _, v := range grp.Options {
						c.Values = append(c.Values, ConfigValue{ID: string(v.Value), Name: grp.Name + ": " + v.Name, Description: acpStr(v.Description)})
					}
				}
			}
			hasModel = hasModel || c.Category == string(acp.SessionConfigOptionCategoryModel)
			out = append(out, c)
		case o.Boolean != nil:
			b := o.Boolean
			c := ConfigOption{ID: string(b.Id), Name: b.Name, Current: fmt.Sprint(b.CurrentValue), Boolean: true,
				Values: []ConfigValue{{ID: "true", Name: "on"}, {ID: "false", Name: "off"}}}
			if b.Category != nil {
				c.Category = string(*b.Category)
			}
			out = append(out, c)
		}
	}
	if models != nil && len(models.AvailableModels) > 0 && !hasModel {
		c := ConfigOption{ID: ACPModelOption, Name: "Model", Category: "model", Current: string(models.CurrentModelId)}
		for _, m := range models.AvailableModels {
			c.Values = append(c.Values, ConfigValue{ID: string(m.ModelId), Name: m.Name, Description: acpStr(m.Description)})
		}
		out = append(out, c)
	}
	return out
}

// --- sessions ---

func (p *acpProc) isLive(sid string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.live[sid]
}

func (p *acpProc) setLive(sid string) {
	p.mu.Lock()
	p.live[sid] = true
	p.mu.Unlock()
}

// ensureSession returns the thread's session in p: already open, loaded
// (its replay dropped), or new (reported with SessionStarted).
func (a *ACP) ensureSession(ctx context.Context, p *acpProc, t Turn, emit func(Event)) (string, error) {
	a.mu.Lock()
	sid := a.sessions[t.ThreadID]
	a.mu.Unlock()
	if sid != "" && p.isLive(sid) {
		return sid, nil
	}
	cwd := p.dir
	if t.Dir != "" {
		if abs, err := filepath.Abs(t.Dir); err == nil {
			cwd = abs
		}
	}
	servers, notes := a.sessionMCPServers(ctx, p)
	for _, n := range notes {
		emit(Notice{n})
	}
	var extra []string
	if p.caps.SessionCapabilities.AdditionalDirectories != nil {
		for _, r := range a.opts.Roots {
			if abs, err := filepath.Abs(r); err == nil {
				extra = append(extra, abs)
			}
		}
	}
	if reopen, method := a.reopener(p); sid != "" && reopen != nil {
		err := reopen(ctx, p, sid, cwd, servers, extra, emit)
		if err == nil {
			return sid, nil
		}
		if errors.Is(err, errACPRestart) || ctx.Err() != nil {
			return "", err
		}
		if p.dead() {
			return "", p.wrapErr(method, err)
		}
		emit(Notice{acpHandoverNotice("chipchat could not resume the agent's own session "+sid+" (the agent said: "+acpRefusal(err)+")", t.Handover)})
	} else if sid != "" {
		emit(Notice{acpHandoverNotice("this agent cannot resume its sessions", t.Handover)})
	} else if kept, omitted := t.Handover.Take(); kept > 0 || omitted > 0 {
		// A thread with messages but no session of this agent (a fork from
		// an earlier message, a thread begun with another agent).
		emit(Notice{acpHandoverNotice("this thread has no session with the agent yet", t.Handover)})
	}
	var resp acp.NewSessionResponse
	err := a.withAuth(ctx, p, emit, func() error {
		var err error
		resp, err = p.conn.NewSession(ctx, acp.NewSessionRequest{Cwd: cwd, McpServers: servers, AdditionalDirectories: extra})
		return err
	})
	if err != nil {
		if errors.Is(err, errACPRestart) {
			return "", err
		}
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", p.wrapErr("session/new", err)
	}
	sid = string(resp.SessionId)
	a.mu.Lock()
	s := a.session(sid)
	s.cwd = cwd
	s.setInitial(resp.Modes, resp.ConfigOptions, resp.Models)
	a.sessions[t.ThreadID] = sid
	a.mu.Unlock()
	p.setLive(sid)
	emit(SessionStarted{ID: sid})
	return sid, nil
}

// acpHandoverNotice says that the agent's session was not resumed (why)
// and what the new session gets instead: the thread's history, handed
// over (h.Take), or nothing.
func acpHandoverNotice(why string, h *Handover) string {
	kept, omitted := h.Take()
	switch {
	case kept == 0 && omitted == 0:
		return why + "; a new session starts with nothing from before"
	case kept == 0:
		return fmt.Sprintf("%s; a new session starts, and the thread's %s did not fit resume_history_bytes, so none was handed over", why, plural(omitted, "earlier message"))
	case omitted == 0:
		return fmt.Sprintf("%s; a new session starts, and chipchat handed it this thread's history instead (%s)", why, plural(kept, "earlier message"))
	}
	return fmt.Sprintf("%s; a new session starts, and chipchat handed it this thread's history instead (the last %s; %d older left out to fit resume_history_bytes)",
		why, plural(kept, "earlier message"), omitted)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// acpRefusal is what the agent said when it refused a request, in words:
// a JSON-RPC error's message and its details, never the error as JSON.
func acpRefusal(err error) string {
	var re *acp.RequestError
	if !errors.As(err, &re) {
		return oneLine(err.Error())
	}
	m := strings.TrimSpace(re.Message)
	if d, ok := re.Data.(map[string]any); ok {
		for _, k := range []string{"details", "error", "message"} {
			if v, ok := d[k].(string); ok && strings.TrimSpace(v) != "" && v != m {
				if m != "" {
					m += ": "
				}
				m += strings.TrimSpace(v)
				break
			}
		}
	} else if v, ok := re.Data.(string); ok && strings.TrimSpace(v) != "" && v != m {
		if m != "" {
			m += ": "
		}
		m += strings.TrimSpace(v)
	}
	if m == "" {
		m = fmt.Sprintf("error %d", re.Code)
	}
	return oneLine(m)
}

// settle waits until no update has come for s for the quiet window (at
// most acpSettleMax).
func (a *ACP) settle(ctx context.Context, s *acpSession) error {
	quiet := a.opts.LoadQuiet
	if quiet <= 0 {
		quiet = acpDefaultLoadQuiet
	}
	after := a.quietAfter
	if after == nil {
		after = time.After
	}
	limit := time.NewTimer(acpSettleMax)
	defer limit.Stop()
	for {
		q := after(quiet)
		select {
		case <-s.activity:
		case <-q:
			return nil
		case <-limit.C:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// --- configuration ---

// SetMode switches the thread's session to modeID (session/set_mode). A
// thread without a session yet gets it when its session starts.
func (a *ACP) SetMode(ctx context.Context, threadID, modeID string) error {
	return a.set(ctx, threadID, acpSetting{mode: true, value: modeID})
}

// SetConfigOption sets a config option of the thread's session
// (session/set_config_option; the ACPModelOption option through
// session/set_model). A boolean option takes "true" or "false".
func (a *ACP) SetConfigOption(ctx context.Context, threadID, optionID, value string) error {
	return a.set(ctx, threadID, acpSetting{id: optionID, value: value})
}

func (a *ACP) set(ctx context.Context, threadID string, s acpSetting) error {
	a.mu.Lock()
	p := a.proc
	sid := a.sessions[threadID]
	if p == nil || sid == "" || !p.isLive(sid) || p.dead() {
		a.pending[threadID] = append(a.pending[threadID], s)
		if st := a.state[sid]; st != nil && sid != "" {
			st.assume(s) // so that SessionState shows what will be
		}
		a.mu.Unlock()
		return nil
	}
	a.mu.Unlock()
	return a.apply(ctx, p, sid, s)
}

// assume records s as set; a.mu must be held.
func (st *acpSession) assume(s acpSetting) {
	switch {
	case s.mode:
		if st.modes == nil {
			st.modes = &Modes{}
		}
		st.modes.Current, st.dirtyModes = s.value, true
	case s.id == ACPModelOption:
		if st.models != nil {
			st.models.CurrentModelId, st.dirtyConfig = acp.ModelId(s.value), true
		}
	default:
		for _, o := range st.config {
			switch {
			case o.Select != nil && string(o.Select.Id) == s.id:
				o.Select.CurrentValue, st.dirtyConfig = acp.SessionConfigValueId(s.value), true
			case o.Boolean != nil && string(o.Boolean.Id) == s.id:
				o.Boolean.CurrentValue, st.dirtyConfig = s.value == "true", true
			}
		}
	}
}

// applyPending applies what was set before the thread had a session.
func (a *ACP) applyPending(ctx context.Context, p *acpProc, threadID, sid string, emit func(Event)) {
	a.mu.Lock()
	list := a.pending[threadID]
	delete(a.pending, threadID)
	a.mu.Unlock()
	for _, s := range list {
		if err := a.apply(ctx, p, sid, s); err != nil {
			what := "mode " + s.value
			if !s.mode {
				what = s.id + " " + s.value
			}
			emit(Notice{"could not set " + oneLine(what) + ": " + oneLine(err.Error())})
		}
	}
}

func (a *ACP) apply(ctx context.Context, p *acpProc, sid string, s acpSetting) error {
	id := acp.SessionId(sid)
	switch {
	case s.mode:
		if _, err := p.conn.SetSessionMode(ctx, acp.SetSessionModeRequest{SessionId: id, ModeId: acp.SessionModeId(s.value)}); err != nil {
			return p.wrapErr("session/set_mode", err)
		}
		a.mu.Lock()
		a.session(sid).assume(s)
		a.mu.Unlock()
		return nil
	case s.id == ACPModelOption:
		if _, err := p.conn.UnstableSetSessionModel(ctx, acp.UnstableSetSessionModelRequest{SessionId: id, ModelId: acp.UnstableModelId(s.value)}); err != nil {
			return p.wrapErr("session/set_model", err)
		}
		a.mu.Lock()
		a.session(sid).assume(s)
		a.mu.Unlock()
		return nil
	}
	a.mu.Lock()
	boolean := false
	for _, o := range a.session(sid).config {
		if o.Boolean != nil && string(o.Boolean.Id) == s.id {
			boolean = true
		}
	}
	a.mu.Unlock()
	var req acp.SetSessionConfigOptionRequest
	if boolean {
		if s.value != "true" && s.value != "false" {
			return fmt.Errorf("acp: option %s is on or off (true or false), not %q", s.id, s.value)
		}
		req.Boolean = &acp.SetSessionConfigOptionBoolean{SessionId: id, ConfigId: acp.SessionConfigId(s.id), Type: "boolean", Value: s.value == "true"}
	} else {
		req.ValueId = &acp.SetSessionConfigOptionValueId{SessionId: id, ConfigId: acp.SessionConfigId(s.id), Value: acp.SessionConfigValueId(s.value)}
	}
	resp, err := p.conn.SetSessionConfigOption(ctx, req)
	if err != nil {
		return p.wrapErr("session/set_config_option", err)
	}
	a.mu.Lock()
	st := a.session(sid)
	if resp.ConfigOptions != nil {
		st.config = resp.ConfigOptions
	} else {
		st.assume(s)
	}
	st.dirtyConfig = true
	a.mu.Unlock()
	return nil
}

// --- MCP servers ---

// sessionMCPServers is the servers of a session p opens: MCPServers, then
// SessionMCPServers' (made for it).
func (a *ACP) sessionMCPServers(ctx context.Context, p *acpProc) ([]acp.McpServer, []string) {
	list, notes := a.opts.MCPServers, []string(nil)
	if f := a.opts.SessionMCPServers; f != nil {
		more, n := f(ctx, p.caps.McpCapabilities.Http)
		list, notes = append(slices.Clip(list), more...), n
	}
	servers, n := acpMCPServers(list, p.caps.McpCapabilities)
	return servers, append(notes, n...)
}

// acpMCPServers is the servers in ACP's form, HTTP ones only when the agent
// takes them (else a note says which were left out).
func acpMCPServers(list []MCPServer, caps acp.McpCapabilities) ([]acp.McpServer, []string) {
	out := []acp.McpServer{}
	var notes []string
	for _, s := range list {
		if s.Command != "" {
			env := []acp.EnvVariable{}
			for _, kv := range s.Env {
				k, v, _ := strings.Cut(kv, "=")
				env = append(env, acp.EnvVariable{Name: k, Value: v})
			}
			args := append([]string{}, s.Args...)
			out = append(out, acp.McpServer{Stdio: &acp.McpServerStdio{Name: s.Name, Command: s.Command, Args: args, Env: env}})
			continue
		}
		if s.URL == "" {
			notes = append(notes, "MCP server "+oneLine(s.Name)+" has neither a command nor a URL; left out")
			continue
		}
		if !caps.Http {
			notes = append(notes, "the agent takes no HTTP MCP servers; "+oneLine(s.Name)+" left out")
			continue
		}
		headers := []acp.HttpHeader{}
		for _, h := range s.Headers {
			k, v, _ := strings.Cut(h, ":")
			headers = append(headers, acp.HttpHeader{Name: strings.TrimSpace(k), Value: strings.TrimSpace(v)})
		}
		out = append(out, acp.McpServer{Http: &acp.McpServerHttpInline{Name: s.Name, Type: "http", Url: s.URL, Headers: headers}})
	}
	return out, notes
}

// --- authentication ---

// withAuth runs call; when the agent answers "authentication required" it
// signs in (asking the user for the method) and runs call once more.
func (a *ACP) withAuth(ctx context.Context, p *acpProc, emit func(Event), call func() error) error {
	err := call()
	if !acpIsAuthRequired(err) {
		return err
	}
	a.authMu.Lock()
	aerr := a.authenticate(ctx, p, emit)
	a.authMu.Unlock()
	if aerr != nil {
		return aerr
	}
	return call()
}

func acpIsAuthRequired(err error) bool {
	var re *acp.RequestError
	return errors.As(err, &re) && re.Code == -32000
}

func (a *ACP) authenticate(ctx context.Context, p *acpProc, emit func(Event)) error {
	var opts []QuestionOption
	var detail []string
	for _, m := range p.authMethods {
		o := a.authOption(m, p)
		if o.ID == "" {
			continue
		}
		opts = append(opts, o)
		line := o.Label
		if o.Description != "" {
			line += ": " + oneLine(o.Description)
		}
		if len(o.EnvVars) > 0 {
			var names []string
			for _, v := range o.EnvVars {
				names = append(names, v.Name)
			}
			line += " (set " + strings.Join(names, ", ") + ")"
		}
		detail = append(detail, line)
	}
	if len(opts) == 0 {
		return errors.New("acp: the agent requires authentication but offers no method; sign in with the agent's own command first")
	}
	who := p.agentName
	if who == "" {
		who = strings.TrimPrefix(a.Name(), "acp:")
	}
	reply := make(chan Answer, 1)
	emit(SignIn{Question: Question{Kind: QuestionAuth, Title: "Sign in to " + who, Detail: strings.Join(detail, "\n"), Options: opts}, Reply: reply})
	var ans Answer
	select {
	case ans = <-reply:
	case <-ctx.Done():
		return ctx.Err()
	}
	var chosen *QuestionOption
	for i := range opts {
		if opts[i].ID == ans.OptionID {
			chosen = &opts[i]
		}
	}
	if ans.OptionID == "" || chosen == nil {
		return errors.New("acp: sign-in dismissed; the agent needs you to sign in")
	}
	switch chosen.Kind {
	case AuthTerminal:
		// The UI ran the login in a terminal; the retried request tells.
		return nil
	case AuthEnvVar:
		if len(ans.Env) == 0 {
			var names []string
			for _, v := range chosen.EnvVars {
				if !v.Optional {
					names = append(names, v.Name)
				}
			}
			return fmt.Errorf("acp: %s needs %s in the agent's environment: set it where chipchat starts (or write env NAME=… before the agent command) and try again", chosen.Label, strings.Join(names, ", "))
		}
		a.mu.Lock()
		a.authEnv = append(a.authEnv, ans.Env...)
		a.authWith = chosen.ID
		a.mu.Unlock()
		a.restart(p)
		return errACPRestart
	}
	emit(Notice{"signing in with " + oneLine(chosen.Label) + ": the agent may be waiting for you to finish in a browser; esc stops it"})
	if _, err := p.conn.Authenticate(ctx, acp.AuthenticateRequest{MethodId: chosen.ID}); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return p.wrapErr("authenticate", err)
	}
	return nil
}

// authOption describes one authentication method as a sign-in option.
func (a *ACP) authOption(m acp.AuthMethod, p *acpProc) QuestionOption {
	switch {
	case m.Agent != nil:
		o := QuestionOption{ID: m.Agent.Id, Label: m.Agent.Name, Kind: AuthAgent, Description: acpStr(m.Agent.Description)}
		if tc := acpMetaTerminal(m.Agent.Meta, p); tc != nil {
			o.Kind, o.Terminal = AuthTerminal, tc
		}
		return acpLabel(o)
	case m.EnvVar != nil:
		o := QuestionOption{ID: m.EnvVar.Id, Label: m.EnvVar.Name, Kind: AuthEnvVar, Description: acpStr(m.EnvVar.Description), Link: acpStr(m.EnvVar.Link)}
		for _, v := range m.EnvVar.Vars {
			o.EnvVars = append(o.EnvVars, AuthVariable{Name: v.Name, Label: acpStr(v.Label), Secret: v.Secret, Optional: v.Optional})
		}
		return acpLabel(o)
	case m.Terminal != nil:
		o := QuestionOption{ID: m.Terminal.Id, Label: m.Terminal.Name, Kind: AuthTerminal, Description: acpStr(m.Terminal.Description)}
		if tc := acpMetaTerminal(m.Terminal.Meta, p); tc != nil {
			o.Terminal = tc
		} else {
			line := a.command
			for _, arg := range m.Terminal.Args {
				line += " " + acpShellQuote(arg)
			}
			o.Terminal = &TerminalCommand{Command: "sh", Args: []string{"-c", line}, Env: append(append([]string(nil), p.env...), acpEnvMap(m.Terminal.Env)...), Dir: p.dir}
		}
		return acpLabel(o)
	}
	return QuestionOption{}
}

func acpLabel(o QuestionOption) QuestionOption {
	if o.Label == "" {
		o.Label = o.ID
	}
	return o
}

// acpMetaTerminal reads the "terminal-auth" _meta some agents attach to a
// method (Claude's adapter): the exact command to run.
func acpMetaTerminal(meta map[string]any, p *acpProc) *TerminalCommand {
	ta, ok := meta["terminal-auth"].(map[string]any)
	if !ok {
		return nil
	}
	cmd, _ := ta["command"].(string)
	if cmd == "" {
		return nil
	}
	tc := &TerminalCommand{Command: cmd, Env: append([]string(nil), p.env...), Dir: p.dir}
	if args, ok := ta["args"].([]any); ok {
		for _, x := range args {
			if s, ok := x.(string); ok {
				tc.Args = append(tc.Args, s)
			}
		}
	}
	if env, ok := ta["env"].(map[string]any); ok {
		tc.Env = append(tc.Env, acpEnvMap(env)...)
	}
	return tc
}

func acpEnvMap(m map[string]any) []string {
	var out []string
	for k, v := range m {
		if s, ok := v.(string); ok {
			out = append(out, k+"="+s)
		}
	}
	sort.Strings(out)
	return out
}

// acpShellQuote quotes s for sh.
func acpShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=/.,:@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// acpPromptText is the text block of a turn's prompt: the prompt, after
// the thread's history when the turn's session is a new one that took it
// over (Turn.Handover).
func acpPromptText(t Turn) string {
	if h := t.Handover.Text(); h != "" {
		return strings.TrimRight(h, "\n") + "\n\n" + t.Prompt
	}
	return t.Prompt
}

package clipboard

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"time"

	atotto "github.com/atotto/clipboard"

	"github.com/chipchat/chipchat/contextref"
)

// HTMLMIME is the HTML carrier's target.
const HTMLMIME = "text/html"

// toolTimeout bounds one run of a clipboard tool.
const toolTimeout = 3 * time.Second

// System is the system clipboard: xclip or wl-copy run directly when
// available, else atotto/clipboard, else OSC 52 (written by the caller).
type System struct {
	// RichTarget, when HTMLMIME or contextref.FragmentMIME, makes Write put
	// that one target on the clipboard instead of the plain text when a
	// fragment is written through a one-target tool (wl-copy or xclip when
	// chipchat's own owner cannot start; see the package doc). The X11 and
	// Wayland owners serve all three targets and ignore it.
	RichTarget string
	// Getenv and LookPath default to the os and os/exec functions.
	Getenv   func(string) string
	LookPath func(string) (string, error)
	// Exe is the program started as "Exe __clipboard-serve" to own the X11
	// or Wayland selection with every target (StartX11Owner,
	// StartWaylandOwner). "" means
	// os.Executable(), except in a Go test binary (name ending in ".test"),
	// which has no such subcommand: there the owner is not used unless
	// Exe is set. "-" never uses the owner.
	Exe string

	serveArgs []string                  // tests: the arguments given to Exe
	lastOwner atomic.Pointer[ownerProc] // tests: the last owner started
}

// exe is the program to run as the X11 owner, "" for none.
func (s *System) exe() string {
	switch s.Exe {
	case "-":
		return ""
	case "":
		p, err := os.Executable()
		if err != nil || strings.HasSuffix(p, ".test") {
			return ""
		}
		return p
	}
	return s.Exe
}

// writeOwner starts a selection owner (X11, or Wayland when wayland is
// true) serving text, the HTML carrier and the fragment JSON at once, and
// reports the targets it serves.
func (s *System) writeOwner(wayland bool, text, html string, f *contextref.Fragment) ([]string, error) {
	exe := s.exe()
	if exe == "" {
		return nil, errors.New("no executable to serve the selection")
	}
	js, jerr := f.Marshal()
	h, herr := contextref.FragmentCarrier(text, html, f)
	if jerr != nil && herr != nil {
		return nil, jerr
	}
	if jerr != nil {
		js = nil
	}
	if herr != nil {
		h = ""
	}
	items := x11Items(text, h, js)
	args := s.serveArgs
	if args == nil {
		args = []string{ServeCommand}
	}
	doc := serveDoc{Display: s.getenv("DISPLAY"), Items: items}
	if wayland {
		doc = serveDoc{Mode: serveWayland, Display: s.getenv("WAYLAND_DISPLAY"), RuntimeDir: s.getenv("XDG_RUNTIME_DIR"), Items: items}
	}
	p, err := startServe(exe, args, doc)
	if err != nil {
		return nil, err
	}
	s.lastOwner.Store(p)
	targets := []string{"text/plain"}
	if h != "" {
		targets = append(targets, HTMLMIME)
	}
	if js != nil {
		targets = append(targets, contextref.FragmentMIME)
	}
	return targets, nil
}

func (s *System) getenv(k string) string {
	if s != nil && s.Getenv != nil {
		return s.Getenv(k)
	}
	return os.Getenv(k)
}

func (s *System) lookPath(p string) (string, error) {
	if s != nil && s.LookPath != nil {
		return s.LookPath(p)
	}
	return exec.LookPath(p)
}

// Tool names the clipboard program System drives: "wl-copy" (Wayland, with
// wl-paste for reading), "xclip" (X11), or "" when neither applies.
func (s *System) Tool() string {
	if s.getenv("WAYLAND_DISPLAY") != "" {
		if _, err := s.lookPath("wl-copy"); err == nil {
			return "wl-copy"
		}
	}
	if s.getenv("DISPLAY") != "" {
		if _, err := s.lookPath("xclip"); err == nil {
			return "xclip"
		}
	}
	return ""
}

// Remote reports whether the terminal is inside tmux or an SSH session,
// where the local clipboard tools may not reach the user's clipboard and
// OSC 52 is written too.
func (s *System) Remote() bool {
	return s.getenv("TMUX") != "" || s.getenv("SSH_CONNECTION") != "" || s.getenv("SSH_TTY") != ""
}

// WriteResult says which carriers took a copy.
type WriteResult struct {
	Cached    bool     // the fragment went to the cache
	System    string   // the tool that took the text ("x11" or "wayland" for chipchat's own selection owner, "xclip", "wl-copy", "atotto"), "" when none
	Target    string   // the target the tool was given (text/plain, text/html or FragmentMIME); "text/plain" for "x11" and "wayland"
	Targets   []string // every target offered: all of text/plain, text/html and FragmentMIME for "x11" and "wayland", else Target
	NeedOSC52 bool     // the caller should also write the text with OSC 52 (tea.SetClipboard)
	Errs      []error
}

// Err joins the carriers' errors (nil when every applicable one worked).
func (r WriteResult) Err() error { return errors.Join(r.Errs...) }

// Clipboard writes and reads every carrier.
type Clipboard struct {
	Cache  *Cache
	System *System
}

// Default is the cache in the state dir and the system clipboard.
func Default() *Clipboard { return &Clipboard{Cache: DefaultCache(), System: &System{}} }

// Write writes text and, when f is non-nil and has records, its fragment to
// every carrier that applies: the cache, then the system clipboard. It runs
// programs and writes files: call it from a tea.Cmd.
func (c *Clipboard) Write(text string, f *contextref.Fragment) WriteResult {
	return c.WriteHTML(text, "", f)
}

// WriteHTML is Write for a copy that has an HTML rendering of its own (a
// transcript selection, say): the HTML carrier is then the <div
// data-t3-context-fragment> form around that HTML, unchanged (DESIGN.md
// 3.7). An empty html is Write.
func (c *Clipboard) WriteHTML(text, html string, f *contextref.Fragment) WriteResult {
	var r WriteResult
	if f != nil && len(f.Records) > 0 && c.Cache != nil {
		if err := c.Cache.Put(text, f); err != nil {
			r.Errs = append(r.Errs, fmt.Errorf("fragment cache: %w", err))
		} else {
			r.Cached = true
		}
	}
	sys := c.System
	if sys == nil {
		sys = &System{}
	}
	payload, target := text, "text/plain"
	if f != nil && len(f.Records) > 0 {
		switch sys.RichTarget {
		case HTMLMIME:
			if h, err := contextref.FragmentCarrier(text, html, f); err == nil {
				payload, target = h, HTMLMIME
			}
		case contextref.FragmentMIME:
			if js, err := f.Marshal(); err == nil {
				payload, target = string(js), contextref.FragmentMIME
			}
		}
	}
	tool, owned := sys.Tool(), false
	if (tool == "xclip" || tool == "wl-copy") && f != nil && len(f.Records) > 0 {
		// Every target at once through chipchat's own selection owner;
		// xclip or wl-copy (one target) when it cannot start.
		wayland := tool == "wl-copy"
		if targets, err := sys.writeOwner(wayland, text, html, f); err == nil {
			r.System, r.Target, r.Targets = "x11", "text/plain", targets
			if wayland {
				r.System = "wayland"
			}
			owned = true
		}
	}
	switch {
	case owned:
	case tool == "wl-copy" || tool == "xclip":
		if err := sys.copyWith(tool, target, payload); err != nil {
			r.Errs = append(r.Errs, err)
			r.NeedOSC52 = true
		} else {
			r.System, r.Target, r.Targets = tool, target, []string{target}
		}
	default:
		if !atotto.Unsupported && !sys.Remote() {
			if err := atotto.WriteAll(text); err == nil {
				r.System, r.Target, r.Targets = "atotto", "text/plain", []string{"text/plain"}
			} else {
				r.NeedOSC52 = true
			}
		} else {
			r.NeedOSC52 = true
		}
	}
	if sys.Remote() {
		r.NeedOSC52 = true
	}
	return r
}

func (s *System) copyWith(tool, target, payload string) error {
	var args []string
	switch tool {
	case "wl-copy":
		args = []string{"--type", target}
	case "xclip":
		args = []string{"-selection", "clipboard", "-in"}
		if target != "text/plain" {
			args = append(args, "-t", target)
		}
	}
	bin, err := s.lookPath(tool)
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin = strings.NewReader(payload)
	// xclip and wl-copy fork a server that keeps the selection: do not wait
	// for its output pipes.
	cmd.Stdout, cmd.Stderr = nil, nil
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: %w", tool, err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("%s: %w", tool, err)
		}
		return nil
	case <-time.After(toolTimeout):
		return fmt.Errorf("%s: no answer in %s", tool, toolTimeout)
	}
}

func (s *System) output(tool string, args ...string) ([]byte, error) {
	bin, err := s.lookPath(tool)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), toolTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, args...).Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tool, err)
	}
	return out, nil
}

// Clip is what the system clipboard holds.
type Clip struct {
	Text     string
	Fragment *contextref.Fragment // from the custom target or the HTML carrier
	Reason   string               // why a carrier that was offered gave no fragment
	Image    []byte               // image/png bytes when the clipboard holds an image and no text
}

// Read reads the system clipboard: the text (normalized as the draft will
// hold it: NormalizeText), and, where the tool lists
// targets, the fragment from the FragmentMIME target, else from the
// text/html carrier. It runs programs: call it from a tea.Cmd.
func (s *System) Read() (Clip, error) {
	tool := s.Tool()
	if tool == "" {
		if atotto.Unsupported {
			return Clip{}, errors.New("no clipboard tool (install xclip or wl-clipboard); paste with the terminal instead")
		}
		t, err := atotto.ReadAll()
		return Clip{Text: NormalizeText(t)}, err
	}
	var targets []string
	var read func(target string) ([]byte, error)
	if tool == "wl-copy" {
		out, err := s.output("wl-paste", "--list-types")
		if err == nil {
			targets = strings.Split(strings.TrimSpace(string(out)), "\n")
		}
		read = func(t string) ([]byte, error) {
			if t == "" {
				return s.output("wl-paste", "--no-newline")
			}
			return s.output("wl-paste", "--no-newline", "--type", t)
		}
	} else {
		out, err := s.output("xclip", "-selection", "clipboard", "-o", "-t", "TARGETS")
		if err == nil {
			targets = strings.Split(strings.TrimSpace(string(out)), "\n")
		}
		read = func(t string) ([]byte, error) {
			if t == "" {
				return s.output("xclip", "-selection", "clipboard", "-o")
			}
			return s.output("xclip", "-selection", "clipboard", "-o", "-t", t)
		}
	}
	has := func(t string) bool {
		for _, x := range targets {
			if strings.TrimSpace(x) == t {
				return true
			}
		}
		return false
	}
	var clip Clip
	textTarget := has("text/plain") || has("UTF8_STRING") || has("STRING") || has("text/plain;charset=utf-8") || len(targets) == 0
	if textTarget {
		if b, err := read(""); err == nil {
			clip.Text = NormalizeText(string(b))
		}
	}
	var fragErr error
	switch {
	case has(contextref.FragmentMIME):
		if b, err := read(contextref.FragmentMIME); err == nil {
			clip.Fragment, fragErr = contextref.DecodeFragmentJSON(b)
		} else {
			fragErr = err
		}
	case has(HTMLMIME):
		if b, err := read(HTMLMIME); err == nil {
			clip.Fragment, fragErr = contextref.DecodeFragmentHTML(string(b))
			if fragErr == nil && !textTarget {
				clip.Text = NormalizeText(htmlPreText(string(b)))
			}
		} else {
			fragErr = err
		}
	}
	if fragErr != nil {
		clip.Fragment = nil
		// Ordinary HTML (no carrier attribute) is no reason to mention.
		if !strings.Contains(fragErr.Error(), "no data-t3-context-fragment attribute") {
			clip.Reason = fragErr.Error()
		}
	}
	if clip.Fragment != nil {
		if err := CheckLinks(clip.Text, clip.Fragment.Records); err != nil {
			clip.Fragment, clip.Reason = nil, err.Error()
		}
	}
	if clip.Text == "" && clip.Fragment == nil && has("image/png") {
		if b, err := read("image/png"); err == nil && len(b) > 0 {
			clip.Image = b
		}
	}
	return clip, nil
}

// htmlPreText is the plain text of an HTML carrier: the content of its
// <pre>, unescaped; for a <div> carrier (no <pre>), the HTML's text with
// its tags removed.
func htmlPreText(h string) string {
	i := strings.Index(h, "<pre")
	if i < 0 {
		return htmlUnescaper.Replace(stripTags(h))
	}
	j := strings.IndexByte(h[i:], '>')
	if j < 0 {
		return ""
	}
	body := h[i+j+1:]
	if k := strings.LastIndex(body, "</pre>"); k >= 0 {
		body = body[:k]
	}
	return htmlUnescaper.Replace(body)
}

// stripTags drops every <…> of an HTML text; a block end or <br> becomes a
// newline.
func stripTags(h string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(h, '<')
		if i < 0 {
			b.WriteString(h)
			return b.String()
		}
		b.WriteString(h[:i])
		j := strings.IndexByte(h[i:], '>')
		if j < 0 {
			return b.String()
		}
		tag := strings.ToLower(h[i+1 : i+j])
		if strings.HasPrefix(tag, "br") || strings.HasPrefix(tag, "/p") || strings.HasPrefix(tag, "/div") || strings.HasPrefix(tag, "/li") {
			b.WriteByte('\n')
		}
		h = h[i+j+1:]
	}
}

var htmlUnescaper = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'", "&amp;", "&")

// ReadSystem is Read on the clipboard's System.
func (c *Clipboard) ReadSystem() (Clip, error) {
	sys := c.System
	if sys == nil {
		sys = &System{}
	}
	return sys.Read()
}

// Lookup finds the fragment of a pasted text in the cache. No entry gives
// (nil, ""); a refused entry gives (nil, reason).
func (c *Clipboard) Lookup(text string) (*contextref.Fragment, string) {
	if c.Cache == nil {
		return nil, ""
	}
	f, err := c.Cache.Lookup(text)
	if errors.Is(err, ErrNoEntry) {
		return nil, ""
	}
	if err != nil {
		return nil, err.Error()
	}
	return f, ""
}

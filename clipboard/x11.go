package clipboard

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"sort"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"github.com/chipchat/chipchat/contextref"
)

// ServeCommand is the hidden subcommand that runs ServeMain: chipchat's main
// dispatches "chipchat __clipboard-serve" to it, so the X11 selection
// outlives the chipchat process that copied (as xclip's daemon does).
const ServeCommand = "__clipboard-serve"

// Text targets the X11 owner answers with the plain text, in the order
// TARGETS lists them.
var textTargets = []string{"UTF8_STRING", "text/plain;charset=utf-8", "text/plain", "STRING", "TEXT"}

// x11Items is what an X11 owner serves for one copy: the plain text under
// every text target, the HTML carrier under text/html and the fragment JSON
// under contextref.FragmentMIME.
func x11Items(text, html string, fragJSON []byte) map[string][]byte {
	items := map[string][]byte{"text/plain": []byte(text)}
	if html != "" {
		items[HTMLMIME] = []byte(html)
	}
	if len(fragJSON) > 0 {
		items[contextref.FragmentMIME] = fragJSON
	}
	return items
}

// selection maps targets to bytes. It is the pure part of the X11 owner.
type selection struct {
	data map[string][]byte
}

// newSelection copies items and fills the text aliases: when any text
// target is given, every text target missing from items serves the first
// one given (in textTargets order).
func newSelection(items map[string][]byte) selection {
	s := selection{data: make(map[string][]byte, len(items)+len(textTargets))}
	for k, v := range items {
		s.data[k] = v
	}
	var text []byte
	found := false
	for _, t := range textTargets {
		if v, ok := items[t]; ok {
			text, found = v, true
			break
		}
	}
	if found {
		for _, t := range textTargets {
			if _, ok := s.data[t]; !ok {
				s.data[t] = text
			}
		}
	}
	return s
}

// targets lists what TARGETS answers: TARGETS and TIMESTAMP, the text
// targets, text/html, the fragment target, then any other item sorted.
func (s selection) targets() []string {
	out := []string{"TARGETS", "TIMESTAMP"}
	seen := map[string]bool{}
	for _, t := range append(append([]string{}, textTargets...), HTMLMIME, contextref.FragmentMIME) {
		if _, ok := s.data[t]; ok {
			out = append(out, t)
			seen[t] = true
		}
	}
	var rest []string
	for t := range s.data {
		if !seen[t] {
			rest = append(rest, t)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// convert answers a data target: the property type to write and the bytes
// (format 8). TEXT is answered as UTF8_STRING; every other target is typed
// as itself. ok is false for targets the selection does not hold
// (TARGETS and TIMESTAMP are answered by the owner, not here).
func (s selection) convert(target string) (typ string, data []byte, ok bool) {
	data, ok = s.data[target]
	if !ok {
		return "", nil, false
	}
	if target == "TEXT" {
		return "UTF8_STRING", data, true
	}
	return target, data, true
}

// incrTimeout drops an INCR transfer whose requestor stopped reading.
const incrTimeout = 30 * time.Second

type incrKey struct {
	win  xproto.Window
	prop xproto.Atom
}

type incrTransfer struct {
	typ     xproto.Atom
	data    []byte
	off     int
	started time.Time
}

// x11Owner is one connection owning CLIPBOARD.
type x11Owner struct {
	c       *xgb.Conn
	win     xproto.Window
	time    xproto.Timestamp
	sel     selection
	atoms   map[string]xproto.Atom
	names   map[xproto.Atom]string
	chunk   int
	incr    map[incrKey]*incrTransfer
	clip    xproto.Atom
	targets xproto.Atom
	stamp   xproto.Atom
	incrA   xproto.Atom
}

func (o *x11Owner) atom(name string) (xproto.Atom, error) {
	if a, ok := o.atoms[name]; ok {
		return a, nil
	}
	r, err := xproto.InternAtom(o.c, false, uint16(len(name)), name).Reply()
	if err != nil {
		return 0, fmt.Errorf("intern atom %q: %w", name, err)
	}
	o.atoms[name], o.names[r.Atom] = r.Atom, name
	return r.Atom, nil
}

// atomName names an atom the owner did not intern itself (a requested
// target), asking the server once.
func (o *x11Owner) atomName(a xproto.Atom) string {
	if n, ok := o.names[a]; ok {
		return n
	}
	r, err := xproto.GetAtomName(o.c, a).Reply()
	if err != nil {
		return ""
	}
	o.names[a], o.atoms[r.Name] = r.Name, a
	return r.Name
}

// ServeX11 owns the CLIPBOARD selection of the X display (DISPLAY when
// display is "") and answers requests for it until another client takes
// it, then returns nil; it returns an error when it cannot connect or take
// the selection, or when the connection breaks. ready, when non-nil, is
// called once ownership is verified with GetSelectionOwner.
//
// items maps target names to bytes. Any of the text targets (UTF8_STRING,
// text/plain;charset=utf-8, text/plain, STRING, TEXT) given stands for all
// of them. TARGETS lists the targets, TIMESTAMP answers the time the
// selection was taken, and an unknown target (MULTIPLE included) is refused
// with property None. A payload larger than one request (the server's
// maximum request length, BIG-REQUESTS is not used) is sent with the ICCCM
// INCR protocol; a transfer whose requestor stops reading for 30 seconds is
// dropped.
func ServeX11(display string, items map[string][]byte, ready func()) error {
	c, err := xgb.NewConnDisplay(display)
	if err != nil {
		return fmt.Errorf("x11: connect: %w", err)
	}
	defer c.Close()
	o := &x11Owner{c: c, sel: newSelection(items), atoms: map[string]xproto.Atom{}, names: map[xproto.Atom]string{}, incr: map[incrKey]*incrTransfer{}}
	setup := xproto.Setup(c)
	// One ChangeProperty request is 24 bytes of header plus the data, in
	// 4-byte units of at most MaximumRequestLength.
	o.chunk = int(setup.MaximumRequestLength)*4 - 32
	if o.chunk > 1<<18 {
		o.chunk = 1 << 18
	}
	if o.chunk < 1024 {
		o.chunk = 1024
	}
	for _, n := range []struct {
		p    *xproto.Atom
		name string
	}{{&o.clip, "CLIPBOARD"}, {&o.targets, "TARGETS"}, {&o.stamp, "TIMESTAMP"}, {&o.incrA, "INCR"}} {
		if *n.p, err = o.atom(n.name); err != nil {
			return fmt.Errorf("x11: %w", err)
		}
	}
	for _, t := range o.sel.targets() {
		if _, err := o.atom(t); err != nil {
			return fmt.Errorf("x11: %w", err)
		}
	}
	screen := setup.DefaultScreen(c)
	if o.win, err = xproto.NewWindowId(c); err != nil {
		return fmt.Errorf("x11: window id: %w", err)
	}
	if err := xproto.CreateWindowChecked(c, 0, o.win, screen.Root, 0, 0, 1, 1, 0, xproto.WindowClassInputOnly, 0,
		xproto.CwEventMask, []uint32{xproto.EventMaskPropertyChange}).Check(); err != nil {
		return fmt.Errorf("x11: create window: %w", err)
	}
	// ICCCM: take the selection with a real timestamp, got from a
	// zero-length append to a property of our own window.
	if o.time, err = o.serverTime(); err != nil {
		return err
	}
	if err := xproto.SetSelectionOwnerChecked(c, o.win, o.clip, o.time).Check(); err != nil {
		return fmt.Errorf("x11: set selection owner: %w", err)
	}
	r, err := xproto.GetSelectionOwner(c, o.clip).Reply()
	if err != nil {
		return fmt.Errorf("x11: get selection owner: %w", err)
	}
	if r.Owner != o.win {
		return errors.New("x11: another client owns CLIPBOARD")
	}
	if ready != nil {
		ready()
	}
	for {
		ev, xerr := c.WaitForEvent()
		if ev == nil && xerr == nil {
			return errors.New("x11: connection closed")
		}
		if xerr != nil {
			// A requestor that went away (BadWindow on its property) is
			// no reason to stop serving.
			continue
		}
		switch e := ev.(type) {
		case xproto.SelectionClearEvent:
			if e.Selection == o.clip {
				return nil
			}
		case xproto.SelectionRequestEvent:
			o.answer(e)
		case xproto.PropertyNotifyEvent:
			o.continueIncr(e)
		}
		o.pruneIncr()
	}
}

// serverTime appends nothing to a property of the owner's window and
// returns the time of the PropertyNotify the server answers with.
func (o *x11Owner) serverTime() (xproto.Timestamp, error) {
	prop, err := o.atom("_CHIPCHAT_CLIPBOARD_TIME")
	if err != nil {
		return 0, fmt.Errorf("x11: %w", err)
	}
	if err := xproto.ChangePropertyChecked(o.c, xproto.PropModeAppend, o.win, prop, xproto.AtomString, 8, 0, nil).Check(); err != nil {
		return 0, fmt.Errorf("x11: timestamp property: %w", err)
	}
	for {
		ev, xerr := o.c.WaitForEvent()
		if ev == nil && xerr == nil {
			return 0, errors.New("x11: connection closed")
		}
		if e, ok := ev.(xproto.PropertyNotifyEvent); ok && e.Window == o.win && e.Atom == prop {
			return e.Time, nil
		}
	}
}

// answer converts one SelectionRequest and notifies the requestor.
func (o *x11Owner) answer(e xproto.SelectionRequestEvent) {
	prop := e.Property
	if prop == xproto.AtomNone { // an obsolete client: use the target
		prop = e.Target
	}
	if !o.convert(e, prop) {
		prop = xproto.AtomNone
	}
	notify := xproto.SelectionNotifyEvent{Time: e.Time, Requestor: e.Requestor, Selection: e.Selection, Target: e.Target, Property: prop}
	xproto.SendEvent(o.c, false, e.Requestor, xproto.EventMaskNoEvent, string(notify.Bytes()))
}

// convert writes the target's value to the requestor's property; false
// refuses the request.
func (o *x11Owner) convert(e xproto.SelectionRequestEvent, prop xproto.Atom) bool {
	if e.Selection != o.clip || e.Owner != o.win {
		return false
	}
	switch e.Target {
	case o.targets:
		names := o.sel.targets()
		buf := make([]byte, 0, 4*len(names))
		for _, n := range names {
			a, err := o.atom(n)
			if err != nil {
				continue
			}
			buf = put32(buf, uint32(a))
		}
		xproto.ChangeProperty(o.c, xproto.PropModeReplace, e.Requestor, prop, xproto.AtomAtom, 32, uint32(len(buf)/4), buf)
		return true
	case o.stamp:
		buf := put32(nil, uint32(o.time))
		xproto.ChangeProperty(o.c, xproto.PropModeReplace, e.Requestor, prop, xproto.AtomInteger, 32, 1, buf)
		return true
	}
	typName, data, ok := o.sel.convert(o.atomName(e.Target))
	if !ok {
		return false
	}
	typ, err := o.atom(typName)
	if err != nil {
		return false
	}
	if len(data) <= o.chunk {
		xproto.ChangeProperty(o.c, xproto.PropModeReplace, e.Requestor, prop, typ, 8, uint32(len(data)), data)
		return true
	}
	// INCR: announce a lower bound of the size, then send a chunk each
	// time the requestor deletes the property, ending with a zero-length
	// chunk.
	key := incrKey{e.Requestor, prop}
	o.incr[key] = &incrTransfer{typ: typ, data: data, started: time.Now()}
	xproto.ChangeWindowAttributes(o.c, e.Requestor, xproto.CwEventMask, []uint32{xproto.EventMaskPropertyChange})
	xproto.ChangeProperty(o.c, xproto.PropModeReplace, e.Requestor, prop, o.incrA, 32, 1, put32(nil, uint32(len(data))))
	return true
}

// continueIncr sends the next chunk of an INCR transfer when its requestor
// deleted the property.
func (o *x11Owner) continueIncr(e xproto.PropertyNotifyEvent) {
	if e.State != xproto.PropertyDelete {
		return
	}
	key := incrKey{e.Window, e.Atom}
	t, ok := o.incr[key]
	if !ok {
		return
	}
	n := min(len(t.data)-t.off, o.chunk)
	xproto.ChangeProperty(o.c, xproto.PropModeReplace, e.Window, e.Atom, t.typ, 8, uint32(n), t.data[t.off:t.off+n])
	t.off += n
	t.started = time.Now()
	if n == 0 {
		o.endIncr(key)
	}
}

func (o *x11Owner) endIncr(key incrKey) {
	delete(o.incr, key)
	for k := range o.incr {
		if k.win == key.win {
			return
		}
	}
	xproto.ChangeWindowAttributes(o.c, key.win, xproto.CwEventMask, []uint32{xproto.EventMaskNoEvent})
}

func (o *x11Owner) pruneIncr() {
	for k, t := range o.incr {
		if time.Since(t.started) > incrTimeout {
			o.endIncr(k)
		}
	}
}

// serveDoc is what StartX11Owner writes to the serving process's stdin.
type serveDoc struct {
	Mode       string            `json:"mode,omitempty"` // "wayland" (ServeWayland), else X11 (ServeX11)
	Display    string            `json:"display"`        // DISPLAY, or WAYLAND_DISPLAY in "wayland" mode
	RuntimeDir string            `json:"runtimeDir,omitempty"`
	Items      map[string][]byte `json:"items"`   // base64 in JSON
	ReadyFD    int               `json:"readyFd"` // when > 2: write "ok\n" (or "error: …\n") there
}

// serveWayland is serveDoc.Mode for the Wayland owner.
const serveWayland = "wayland"

// maxServeDoc bounds the document ServeMain reads: a fragment is at most
// contextref.MaxFragmentLen characters and travels three times, base64.
const maxServeDoc = 256 << 20

// ServeMain is the "__clipboard-serve" subcommand: it reads a JSON document
// {"display": ":0", "items": {target: base64}, "readyFd": 3} from stdin,
// owns the X11 CLIPBOARD with those targets (ServeX11) and returns 0 when
// another client takes it. With "mode": "wayland" (and "display" the
// WAYLAND_DISPLAY, "runtimeDir" the XDG_RUNTIME_DIR) it sets the Wayland
// clipboard instead (ServeWayland). When readyFd is set it writes "ok\n" to that
// file descriptor once it owns the selection, or "error: …\n" when it
// cannot. Errors also go to stderr; the exit code is then 1 (2 for a bad
// document).
func ServeMain(stdin io.Reader, stderr io.Writer) int {
	xgb.Logger = log.New(io.Discard, "", 0)
	var doc serveDoc
	raw, err := io.ReadAll(io.LimitReader(stdin, maxServeDoc+1))
	if err == nil && len(raw) > maxServeDoc {
		err = errors.New("document too large")
	}
	if err == nil {
		err = json.Unmarshal(raw, &doc)
	}
	var ready *os.File
	if doc.ReadyFD > 2 {
		ready = os.NewFile(uintptr(doc.ReadyFD), "ready")
	}
	report := func(msg string) {
		if ready != nil {
			_, _ = io.WriteString(ready, msg)
			_ = ready.Close()
			ready = nil
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "chipchat %s: %v\n", ServeCommand, err)
		report("error: " + err.Error() + "\n")
		return 2
	}
	if doc.Mode == serveWayland {
		err = ServeWayland(doc.Display, doc.RuntimeDir, doc.Items, func() { report("ok\n") })
	} else {
		err = ServeX11(doc.Display, doc.Items, func() { report("ok\n") })
	}
	if err != nil {
		fmt.Fprintf(stderr, "chipchat %s: %v\n", ServeCommand, err)
		report("error: " + err.Error() + "\n")
		return 1
	}
	return 0
}

// ownerStartTimeout bounds how long StartX11Owner waits for the serving
// process to own the selection.
const ownerStartTimeout = 2 * time.Second

// StartX11Owner starts "exe __clipboard-serve" detached (its own session,
// stdout and stderr to /dev/null) to own the CLIPBOARD of display with
// items, and returns once it reports ownership, or an error (the process
// is then killed) when it fails or does not answer within 2 seconds.
func StartX11Owner(exe, display string, items map[string][]byte) error {
	_, err := startOwner(exe, []string{ServeCommand}, display, items)
	return err
}

// ownerProc is a started serving process.
type ownerProc struct {
	pid    int
	exited chan struct{} // closed once the process is reaped
}

func startOwner(exe string, args []string, display string, items map[string][]byte) (*ownerProc, error) {
	return startServe(exe, args, serveDoc{Display: display, Items: items})
}

// StartWaylandOwner is StartX11Owner for Wayland: the process sets the
// clipboard of the compositor at display (WAYLAND_DISPLAY) in runtimeDir
// (XDG_RUNTIME_DIR) with items through wlr-data-control (ServeWayland) and
// serves it until another client takes it.
func StartWaylandOwner(exe, display, runtimeDir string, items map[string][]byte) error {
	_, err := startServe(exe, []string{ServeCommand}, serveDoc{Mode: serveWayland, Display: display, RuntimeDir: runtimeDir, Items: items})
	return err
}

// startServe starts "exe args..." detached with doc on its stdin and waits
// for its readiness line.
func startServe(exe string, args []string, sd serveDoc) (*ownerProc, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	sd.ReadyFD = 3
	doc, err := json.Marshal(sd)
	if err != nil {
		w.Close()
		return nil, err
	}
	cmd := detachedCommand(exe, args...)
	cmd.Stdin = bytes.NewReader(doc)
	cmd.ExtraFiles = []*os.File{w} // fd 3 in the child
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil, fmt.Errorf("clipboard owner: %w", err)
	}
	w.Close()
	p := &ownerProc{pid: cmd.Process.Pid, exited: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.exited) }() // reap it whenever it ends
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(io.LimitReader(r, 4096)).ReadString('\n')
		line <- s
	}()
	select {
	case s := <-line:
		if s == "ok\n" {
			return p, nil
		}
		_ = cmd.Process.Kill()
		if s == "" {
			return nil, errors.New("clipboard owner: exited without owning the selection")
		}
		return nil, fmt.Errorf("clipboard owner: %s", trimNewline(s))
	case <-time.After(ownerStartTimeout):
		_ = cmd.Process.Kill()
		return nil, fmt.Errorf("clipboard owner: no answer in %s", ownerStartTimeout)
	}
}

func trimNewline(s string) string {
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}

// put32 appends v in the connection's byte order (xgb speaks little-endian).
func put32(buf []byte, v uint32) []byte {
	var b [4]byte
	xgb.Put32(b[:], v)
	return append(buf, b[:]...)
}

//go:build unix

package clipboard

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// The Wayland owner speaks the Wayland wire protocol itself (no libwayland,
// no cgo): a unix socket carrying messages of a 32-bit object id, a 32-bit
// word of size<<16|opcode and 4-byte-aligned arguments in host byte order;
// file descriptors travel as SCM_RIGHTS. It uses wlr-data-control
// (zwlr_data_control_manager_v1), which lets a client without a surface or
// keyboard focus set the selection, as wl-copy does.

// waylandDataControl is the global the owner needs from the compositor.
const waylandDataControl = "zwlr_data_control_manager_v1"

// waylandWriteTimeout drops a paste whose reader stopped reading.
const waylandWriteTimeout = 30 * time.Second

// Opcodes used by the owner.
const (
	wlDisplayID = 1

	wlDisplaySync        = 0 // request: new_id wl_callback
	wlDisplayGetRegistry = 1 // request: new_id wl_registry
	wlDisplayError       = 0 // event: object, uint code, string message

	wlRegistryBind   = 0 // request: uint name, string interface, uint version, new_id
	wlRegistryGlobal = 0 // event: uint name, string interface, uint version

	wlCallbackDone = 0 // event

	dcManagerCreateSource = 0 // request: new_id source
	dcManagerGetDevice    = 1 // request: new_id device, object seat

	dcDeviceSetSelection = 0 // request: object source
	dcDeviceDataOffer    = 0 // event: new_id offer
	dcDeviceFinished     = 2 // event

	dcSourceOffer     = 0 // request: string mime_type
	dcSourceSend      = 0 // event: string mime_type, fd
	dcSourceCancelled = 1 // event

	dcOfferDestroy = 1 // request
)

// wlConn is one client connection.
type wlConn struct {
	c    *net.UnixConn
	last uint32 // the last client object id allocated
	buf  []byte // bytes read and not parsed yet
	fds  []int  // file descriptors received and not claimed yet
}

type wlEvent struct {
	obj  uint32
	op   uint16
	body []byte
}

func (w *wlConn) newID() uint32 {
	w.last++
	return w.last
}

// send writes one request; args are uint32 or string.
func (w *wlConn) send(obj uint32, op uint16, args ...any) error {
	msg := make([]byte, 8, 64)
	for _, a := range args {
		switch v := a.(type) {
		case uint32:
			msg = binary.NativeEndian.AppendUint32(msg, v)
		case string:
			msg = binary.NativeEndian.AppendUint32(msg, uint32(len(v)+1))
			msg = append(msg, v...)
			msg = append(msg, 0)
			for len(msg)%4 != 0 {
				msg = append(msg, 0)
			}
		default:
			panic(fmt.Sprintf("wayland: argument type %T", a))
		}
	}
	if len(msg) > 0xffff {
		return errors.New("wayland: request too large")
	}
	binary.NativeEndian.PutUint32(msg, obj)
	binary.NativeEndian.PutUint32(msg[4:], uint32(len(msg))<<16|uint32(op))
	_, err := w.c.Write(msg)
	return err
}

// read returns the next event, reading the socket as needed.
func (w *wlConn) read() (wlEvent, error) {
	for {
		if len(w.buf) >= 8 {
			size := int(binary.NativeEndian.Uint32(w.buf[4:]) >> 16)
			if size < 8 || size%4 != 0 {
				return wlEvent{}, fmt.Errorf("wayland: bad message size %d", size)
			}
			if len(w.buf) >= size {
				ev := wlEvent{
					obj:  binary.NativeEndian.Uint32(w.buf),
					op:   uint16(binary.NativeEndian.Uint32(w.buf[4:])),
					body: append([]byte(nil), w.buf[8:size]...),
				}
				w.buf = w.buf[size:]
				return ev, nil
			}
		}
		b := make([]byte, 4096)
		oob := make([]byte, syscall.CmsgSpace(28*4))
		n, oobn, _, _, err := w.c.ReadMsgUnix(b, oob)
		if oobn > 0 {
			if msgs, perr := syscall.ParseSocketControlMessage(oob[:oobn]); perr == nil {
				for i := range msgs {
					if fds, ferr := syscall.ParseUnixRights(&msgs[i]); ferr == nil {
						w.fds = append(w.fds, fds...)
					}
				}
			}
		}
		w.buf = append(w.buf, b[:n]...)
		if err != nil {
			return wlEvent{}, fmt.Errorf("wayland: %w", err)
		}
		if n == 0 {
			return wlEvent{}, errors.New("wayland: connection closed")
		}
	}
}

// takeFD claims the oldest file descriptor received.
func (w *wlConn) takeFD() (int, error) {
	if len(w.fds) == 0 {
		return -1, errors.New("wayland: expected a file descriptor")
	}
	fd := w.fds[0]
	w.fds = w.fds[1:]
	return fd, nil
}

func (w *wlConn) close() {
	for _, fd := range w.fds {
		_ = syscall.Close(fd)
	}
	w.fds = nil
	_ = w.c.Close()
}

// wlArgs decodes an event's arguments.
type wlArgs struct {
	b   []byte
	err error
}

func (a *wlArgs) uint() uint32 {
	if a.err != nil {
		return 0
	}
	if len(a.b) < 4 {
		a.err = errors.New("wayland: short event")
		return 0
	}
	v := binary.NativeEndian.Uint32(a.b)
	a.b = a.b[4:]
	return v
}

func (a *wlArgs) string() string {
	n := int(a.uint())
	if a.err != nil || n == 0 {
		return ""
	}
	padded := (n + 3) &^ 3
	if len(a.b) < padded {
		a.err = errors.New("wayland: short string")
		return ""
	}
	s := string(a.b[:n-1]) // without the NUL
	a.b = a.b[padded:]
	return s
}

// waylandSocketPath is the compositor's socket: display itself when it is
// an absolute path, else display (default "wayland-0") in runtimeDir.
func waylandSocketPath(display, runtimeDir string) (string, error) {
	if display == "" {
		display = "wayland-0"
	}
	if filepath.IsAbs(display) {
		return display, nil
	}
	if runtimeDir == "" {
		return "", errors.New("wayland: XDG_RUNTIME_DIR is not set")
	}
	return filepath.Join(runtimeDir, display), nil
}

// ServeWayland sets the Wayland clipboard (the selection of the
// compositor's first seat) through wlr-data-control and serves it until
// another client takes it (the source is cancelled), then returns nil. display
// and runtimeDir default to WAYLAND_DISPLAY and XDG_RUNTIME_DIR when "". It
// returns an error when it cannot connect, the compositor lacks wl_seat or
// zwlr_data_control_manager_v1, a protocol error is reported, or the
// connection breaks. ready, when non-nil, is called once the compositor has
// processed set_selection (a wl_display.sync round trip).
//
// items maps MIME types to bytes, with the text aliases of the X11 owner:
// any of UTF8_STRING, text/plain;charset=utf-8, text/plain, STRING and TEXT
// given stands for all of them. Each paste (the source's send event) is
// written to the file descriptor received and closed; a reader that stops
// reading for 30 seconds is dropped.
func ServeWayland(display, runtimeDir string, items map[string][]byte, ready func()) error {
	if display == "" {
		display = os.Getenv("WAYLAND_DISPLAY")
	}
	if runtimeDir == "" {
		runtimeDir = os.Getenv("XDG_RUNTIME_DIR")
	}
	path, err := waylandSocketPath(display, runtimeDir)
	if err != nil {
		return err
	}
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return fmt.Errorf("wayland: connect: %w", err)
	}
	w := &wlConn{c: c, last: wlDisplayID}
	defer w.close()
	sel := newSelection(items)
	var mimes []string
	for _, t := range sel.targets() {
		if t != "TARGETS" && t != "TIMESTAMP" {
			mimes = append(mimes, t)
		}
	}

	// The globals: a registry, then a sync whose done ends the list.
	registry := w.newID()
	if err := w.send(wlDisplayID, wlDisplayGetRegistry, registry); err != nil {
		return fmt.Errorf("wayland: %w", err)
	}
	cb := w.newID()
	if err := w.send(wlDisplayID, wlDisplaySync, cb); err != nil {
		return fmt.Errorf("wayland: %w", err)
	}
	var seatName, managerName uint32
	var haveSeat, haveManager bool
	for done := false; !done; {
		ev, err := w.read()
		if err != nil {
			return err
		}
		switch {
		case ev.obj == wlDisplayID && ev.op == wlDisplayError:
			return displayError(ev)
		case ev.obj == registry && ev.op == wlRegistryGlobal:
			a := &wlArgs{b: ev.body}
			name, iface := a.uint(), a.string()
			if a.err != nil {
				return a.err
			}
			switch {
			case iface == "wl_seat" && !haveSeat:
				seatName, haveSeat = name, true
			case iface == waylandDataControl:
				managerName, haveManager = name, true
			}
		case ev.obj == cb && ev.op == wlCallbackDone:
			done = true
		}
	}
	if !haveManager {
		return fmt.Errorf("wayland: the compositor does not offer %s", waylandDataControl)
	}
	if !haveSeat {
		return errors.New("wayland: the compositor has no seat")
	}

	seat, manager := w.newID(), w.newID()
	source, device := w.newID(), w.newID()
	synced := w.newID()
	reqs := []func() error{
		func() error { return w.send(registry, wlRegistryBind, seatName, "wl_seat", uint32(1), seat) },
		func() error {
			return w.send(registry, wlRegistryBind, managerName, waylandDataControl, uint32(1), manager)
		},
		func() error { return w.send(manager, dcManagerCreateSource, source) },
	}
	for _, m := range mimes {
		reqs = append(reqs, func() error { return w.send(source, dcSourceOffer, m) })
	}
	reqs = append(reqs,
		func() error { return w.send(manager, dcManagerGetDevice, device, seat) },
		func() error { return w.send(device, dcDeviceSetSelection, source) },
		func() error { return w.send(wlDisplayID, wlDisplaySync, synced) },
	)
	for _, r := range reqs {
		if err := r(); err != nil {
			return fmt.Errorf("wayland: %w", err)
		}
	}

	var writes sync.WaitGroup
	defer writes.Wait()
	for {
		ev, err := w.read()
		if err != nil {
			return err
		}
		switch {
		case ev.obj == wlDisplayID && ev.op == wlDisplayError:
			return displayError(ev)
		case ev.obj == synced && ev.op == wlCallbackDone:
			if ready != nil {
				ready()
				ready = nil
			}
		case ev.obj == source && ev.op == dcSourceSend:
			a := &wlArgs{b: ev.body}
			mime := a.string()
			if a.err != nil {
				return a.err
			}
			fd, err := w.takeFD()
			if err != nil {
				return err
			}
			data, ok := sel.data[mime]
			if !ok {
				_ = syscall.Close(fd)
				continue
			}
			writes.Add(1)
			go func() {
				defer writes.Done()
				writeFD(fd, data)
			}()
		case ev.obj == source && ev.op == dcSourceCancelled:
			return nil
		case ev.obj == device && ev.op == dcDeviceFinished:
			return errors.New("wayland: the data device was finished (seat gone)")
		case ev.obj == device && ev.op == dcDeviceDataOffer:
			// Every selection (our own included) is announced as an offer
			// the owner never reads: release it at once. Its later events
			// go to an object the owner ignores.
			a := &wlArgs{b: ev.body}
			if id := a.uint(); a.err == nil {
				if err := w.send(id, dcOfferDestroy); err != nil {
					return fmt.Errorf("wayland: %w", err)
				}
			}
		}
	}
}

func displayError(ev wlEvent) error {
	a := &wlArgs{b: ev.body}
	obj, code, msg := a.uint(), a.uint(), a.string()
	return fmt.Errorf("wayland: protocol error on object %d (code %d): %s", obj, code, msg)
}

// writeFD writes data to a paste's pipe and closes it.
func writeFD(fd int, data []byte) {
	_ = syscall.SetNonblock(fd, true) // pollable, so the deadline applies
	f := os.NewFile(uintptr(fd), "wayland-paste")
	defer f.Close()
	_ = f.SetWriteDeadline(time.Now().Add(waylandWriteTimeout))
	_, _ = f.Write(data)
}

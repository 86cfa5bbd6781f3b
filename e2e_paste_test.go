package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// End-to-end tests of issue 14 (nothing typed, copied or pasted is lost):
// the real binary in tmux.

// chipchatApp is one chipchat process in a tmux session.
type chipchatApp struct {
	*tmuxSession
	t       *testing.T
	data    string
	command string
}

// startChipchat runs chipchat on data in the project proj, with HOME,
// config and state under home (config, when given, is written as its
// config.toml) and env's NAME=value entries added to its environment.
func startChipchat(t *testing.T, proj, home, data, config string, env ...string) *chipchatApp {
	t.Helper()
	if config != "" {
		writeFile(t, filepath.Join(home, ".config", "chipchat", "config.toml"), config)
	}
	var extra strings.Builder
	for _, e := range env {
		fmt.Fprintf(&extra, " %q", e)
	}
	command := fmt.Sprintf("cd %q && env HOME=%q XDG_CONFIG_HOME=%q XDG_STATE_HOME=%q TERM=xterm-256color%s %q --data-dir %q; echo EXITED=$?; sleep 600",
		proj, home, filepath.Join(home, ".config"), filepath.Join(home, ".state"), extra.String(), chipchatBinary(t), data)
	s := startTmux(t, command)
	s.waitFor("enter send")
	return &chipchatApp{tmuxSession: s, t: t, data: data, command: command}
}

// execProject is a project (a README in it), a home and a data dir under
// one temporary root, whose config runs a shell script as the exec: agent.
type execProject struct{ root, proj, home, data, config string }

// newExecProject writes script as the exec: agent of a new project.
// countTurns, put first, numbers the turns in $n.
func newExecProject(t *testing.T, script string) execProject {
	t.Helper()
	root := t.TempDir()
	p := execProject{root: root, proj: filepath.Join(root, "proj"), home: filepath.Join(root, "home"), data: filepath.Join(root, "data")}
	writeFile(t, filepath.Join(p.proj, "README"), "x\n")
	path := filepath.Join(root, "agent.sh")
	writeFile(t, path, script)
	p.config = fmt.Sprintf("agent = %q\n", "exec:sh "+path)
	return p
}

// countTurns starts an exec: script that numbers its turns: $n is 1 on the
// first, 2 on the next… (a file beside the script counts them, across
// chipchat processes).
const countTurns = `n=$(cat "${0%/*}/turns" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "${0%/*}/turns"` + "\n"

// start runs chipchat on the project (again after a kill: the same data).
func (p execProject) start(t *testing.T) *chipchatApp {
	t.Helper()
	return startChipchat(t, p.proj, p.home, p.data, p.config)
}

// pid finds the chipchat process of this data dir.
func (a *chipchatApp) pid() int {
	a.t.Helper()
	return chipchatPID(a.t, a.data)
}

// chipchatPID finds the chipchat process running on the data dir data.
func chipchatPID(t *testing.T, data string) int {
	t.Helper()
	pid := findProcess(func(args []string, _ int) bool {
		return len(args) > 2 && filepath.Base(args[0]) == "chipchat" && slices.Contains(args[1:], data)
	})
	if pid == 0 {
		t.Fatalf("no chipchat process for %s", data)
	}
	return pid
}

// findProcess is the pid of a running process for which match holds of
// its arguments and its parent's pid, or 0.
func findProcess(match func(args []string, ppid int) bool) int {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmd, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		ppid := 0 // stat: pid (comm) state ppid …
		if i := bytes.LastIndexByte(stat, ')'); i > 0 {
			if f := strings.Fields(string(stat[i+1:])); len(f) > 1 {
				ppid, _ = strconv.Atoi(f[1])
			}
		}
		if match(strings.Split(strings.TrimSuffix(string(cmd), "\x00"), "\x00"), ppid) {
			return pid
		}
	}
	return 0
}

// peakRSS is the process's VmHWM in bytes.
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM")
	return 0
}

// bigPaste writes a file of exactly n bytes of text lines (LF line ends).
func bigPaste(t *testing.T, dir string, n int) string {
	t.Helper()
	p := filepath.Join(dir, "big.txt")
	var b bytes.Buffer
	b.Grow(n)
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "line %09d of a very long paste that nobody should hold in memory whole\n", i)
	}
	if err := os.WriteFile(p, b.Bytes()[:n], 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// findAsset returns the stored asset of this size, if any.
func findAsset(data string, size int64) string {
	var found string
	_ = filepath.WalkDir(filepath.Join(data, "assets"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(d.Name(), ".") {
			if info, err := d.Info(); err == nil && info.Size() == size {
				found = p
			}
		}
		return nil
	})
	return found
}

func fileSum(t *testing.T, p string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// answersKey types a key and reports how long the screen took to show it:
// until r is on the screen once more than before it was typed.
func (a *chipchatApp) answersKey(r string) time.Duration {
	a.t.Helper()
	before := strings.Count(a.screen(), r)
	start := time.Now()
	a.text(r)
	a.waitUntil(fmt.Sprintf("one %q more", r), func(scr string) bool { return strings.Count(scr, r) > before })
	return time.Since(start)
}

const pasteMB = 100_000_000

// startHugePaste starts chipchat with config, types typed, and loads a
// 100 MB text into tmux's paste buffer; it returns the app and the file.
func startHugePaste(t *testing.T, config, typed string) (*chipchatApp, string) {
	t.Helper()
	root := t.TempDir()
	proj, home, data := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "data")
	writeFile(t, filepath.Join(proj, "README"), "x\n")
	src := bigPaste(t, root, pasteMB)
	a := startChipchat(t, proj, home, data, config)
	a.text(typed)
	a.waitFor(strings.TrimSpace(typed))
	a.run("load-buffer", src)
	return a, src
}

// A 100 MB bracketed paste through tmux with attachment_bytes raised to
// 200 MiB: it becomes one pasted-text chip holding all of it, chipchat's
// peak RSS stays ≤ 400 MB, and a key is answered within 1 s after.
func TestEndToEndHugePasteBecomesChip(t *testing.T) {
	a, src := startHugePaste(t, "[limits]\nattachment_bytes = 209715200\n", "before ")
	data := a.data
	start := time.Now()
	a.run("paste-buffer", "-p", "-t", a.name)
	a.waitFor("long paste kept as pasted-text-1.txt")
	took := time.Since(start)
	if d := a.answersKey("Q"); d > time.Second {
		t.Errorf("a key took %v to show after the paste", d)
	}
	hwm := peakRSS(t, a.pid())
	t.Logf("100 MB paste: chip after %v, VmHWM %d MB", took.Round(time.Millisecond), hwm>>20)
	if hwm > 400_000_000 {
		t.Errorf("VmHWM %d MB, want ≤ 400 MB", hwm/1_000_000)
	}
	asset := findAsset(data, pasteMB)
	if asset == "" {
		t.Fatal("no asset of 100 MB in the store")
	}
	if fileSum(t, asset) != fileSum(t, src) {
		t.Fatal("the chip's file differs from what was pasted")
	}
	scr := a.screen()
	if !strings.Contains(scr, "pasted-text-1.txt") {
		t.Fatalf("no chip in the composer:\n%s", scr)
	}
	a.keys("C-q")
	a.waitFor("EXITED=0")
}

// The same paste with the default 20 MiB limit: refused with a toast that
// says how to raise the limit, the composer unchanged, the same memory
// bound, keys answered.
func TestEndToEndHugePasteOverLimitIsRefused(t *testing.T) {
	a, _ := startHugePaste(t, "", "keep this draft")
	data := a.data
	a.run("paste-buffer", "-p", "-t", a.name)
	a.waitFor("paste refused", "attachment_bytes")
	// The rest of the paste is read and dropped; then keys answer.
	deadline := time.Now().Add(30 * time.Second)
	for {
		start := time.Now()
		a.text("Z")
		a.waitFor("draftZ")
		if d := time.Since(start); d <= time.Second {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("keys never answered within 1 s after the refused paste")
		}
		a.keys("BSpace")
		a.waitUntil("the Z deleted", func(scr string) bool { return !strings.Contains(scr, "draftZ") })
	}
	hwm := peakRSS(t, a.pid())
	t.Logf("refused 100 MB paste: VmHWM %d MB", hwm>>20)
	if hwm > 400_000_000 {
		t.Errorf("VmHWM %d MB, want ≤ 400 MB", hwm/1_000_000)
	}
	scr := a.screen()
	if strings.Contains(scr, "pasted-text") || strings.Contains(scr, "line 0000") {
		t.Fatalf("the refused paste changed the composer:\n%s", scr)
	}
	if findAsset(data, pasteMB) != "" {
		t.Fatal("the refused paste was stored")
	}
	a.keys("C-q")
	a.waitFor("EXITED=0")
}

// The external editor (ctrl+g) gets the terminal itself, not the input
// filter: what is typed in it reaches it, and the first key typed after
// it returns reaches chipchat.
func TestEndToEndExternalEditorThroughFilter(t *testing.T) {
	root := t.TempDir()
	proj, home, data := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "data")
	writeFile(t, filepath.Join(proj, "README"), "x\n")
	ed := filepath.Join(root, "ed.sh")
	writeFile(t, ed, "#!/bin/sh\nprintf 'EDITOR READY\\n'\nread line\necho \"$line\" >> \"$1\"\n")
	if err := os.Chmod(ed, 0o755); err != nil {
		t.Fatal(err)
	}
	s := startChipchat(t, proj, home, data, "", "VISUAL="+ed)
	s.text("hello ")
	s.keys("C-g")
	s.waitFor("EDITOR READY")
	s.text("from the editor")
	s.keys("Enter")
	s.waitFor("hello from the editor", "enter send")
	s.text("Zq7")
	s.waitFor("Zq7") // the first keys after the editor reach chipchat
	s.keys("C-q")
	s.waitFor("EXITED=0")
}

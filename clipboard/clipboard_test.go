package clipboard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/assets"
	"github.com/chipchat/chipchat/contextref"
)

func termRec(id string) *contextref.TerminalRecord {
	return &contextref.TerminalRecord{Base: contextref.NewBase(contextref.KindTerminal, id, "Terminal 1"),
		TerminalID: "t1", TerminalLabel: "Terminal 1", LineStart: 1, LineEnd: 1, Text: "$ go test"}
}

func imageRec(id, att string) *contextref.ImageRecord {
	return &contextref.ImageRecord{AttachmentRecord: contextref.AttachmentRecord{
		Base: contextref.NewBase(contextref.KindImage, id, "shot.png"), AttachmentID: att, Name: "shot.png", MimeType: "image/png", SizeBytes: 3}}
}

func frag(env string, recs ...contextref.Record) *contextref.Fragment {
	return &contextref.Fragment{Source: contextref.FragmentSource{EnvironmentID: env, ThreadID: "th_1", MessageID: "m_1"}, Records: recs}
}

func TestCachePutLookup(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	text := "see " + contextref.LinkFor(termRec("ctx_t"))
	if err := c.Put(text, frag("env_a", termRec("ctx_t"))); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(filepath.Join(c.Dir, Key(text)+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", info.Mode().Perm())
	}
	f, err := c.Lookup(text)
	if err != nil {
		t.Fatal(err)
	}
	if f.Source.EnvironmentID != "env_a" || f.Source.MessageID != "m_1" || len(f.Records) != 1 {
		t.Errorf("fragment = %+v", f)
	}
	if _, err := c.Lookup(text + " "); !errors.Is(err, ErrNoEntry) {
		t.Errorf("other text: %v, want ErrNoEntry", err)
	}
}

func TestCacheEviction(t *testing.T) {
	c := &Cache{Dir: t.TempDir(), MaxEntries: 3}
	base := time.Now().Add(-time.Hour)
	for i := range 5 {
		text := fmt.Sprintf("text %d %s", i, contextref.LinkFor(termRec("ctx_t")))
		if err := c.Put(text, frag("env_a", termRec("ctx_t"))); err != nil {
			t.Fatal(err)
		}
		// distinct modification times, oldest first
		_ = os.Chtimes(filepath.Join(c.Dir, Key(text)+".json"), base.Add(time.Duration(i)*time.Minute), base.Add(time.Duration(i)*time.Minute))
	}
	c.evict()
	for i := range 5 {
		text := fmt.Sprintf("text %d %s", i, contextref.LinkFor(termRec("ctx_t")))
		_, err := c.Lookup(text)
		if i < 2 && !errors.Is(err, ErrNoEntry) {
			t.Errorf("entry %d survived: %v", i, err)
		}
		if i >= 2 && err != nil {
			t.Errorf("entry %d: %v", i, err)
		}
	}
	// a byte bound evicts too
	c2 := &Cache{Dir: t.TempDir(), MaxBytes: 900}
	for i := range 4 {
		_ = c2.Put(fmt.Sprintf("t%d", i), frag("env_a", termRec("ctx_t")))
	}
	des, _ := os.ReadDir(c2.Dir)
	var total int64
	for _, de := range des {
		info, _ := de.Info()
		total += info.Size()
	}
	if total > 900 || len(des) == 0 {
		t.Errorf("byte bound: %d files, %d bytes", len(des), total)
	}
}

// tamper writes a cache entry by hand.
func tamper(t *testing.T, c *Cache, key, text string, fragment string) {
	t.Helper()
	raw, _ := json.Marshal(map[string]any{"text": text, "fragment": json.RawMessage(fragment)})
	if err := os.WriteFile(filepath.Join(c.Dir, key+".json"), raw, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestCacheTampered(t *testing.T) {
	c := &Cache{Dir: t.TempDir(), MaxBytes: 4096}
	text := "see [Terminal 1](t3-context://v1/terminal/ctx_t)"
	good, _ := frag("env_a", termRec("ctx_t")).Marshal()
	cases := map[string]struct{ text, fragment, want string }{
		"invalid record":   {text, `{"version":1,"source":{"environmentId":"e"},"records":[{"version":1,"kind":"terminal","contextId":"ctx_t","label":"x"}]}`, "invalid"},
		"id/kind mismatch": {text, strings.Replace(string(good), `"kind":"terminal"`, `"kind":"mention","path":"a.go"`, 1), "is a terminal but its record is a mention"},
		"text mismatch":    {"another text", string(good), "not the pasted text"},
		"malformed JSON":   {text, `{"version":1,`, "not JSON"},
		"bad version":      {text, `{"version":2,"source":{"environmentId":"e"},"records":[]}`, "version"},
		"oversize":         {text, `{"version":1,"source":{"environmentId":"e"},"records":[],"pad":"` + strings.Repeat("x", 5000) + `"}`, "over"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tamper(t, c, Key(text), tc.text, tc.fragment)
			f, err := c.Lookup(text)
			if f != nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, %v; want no fragment and a reason with %q", f, err, tc.want)
			}
		})
	}
}

// fakeTools puts fake xclip, wl-copy and wl-paste on PATH; each records its
// arguments and stdin in dir/<tool>.args and dir/<tool>.stdin, and answers
// reads from dir/<tool>.out.<target>.
func fakeTools(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	script := `#!/bin/sh
tool=$(basename "$0")
echo "$@" >> "` + dir + `/$tool.args"
target=text
prev=""
out=0
for a in "$@"; do
  case "$prev" in -t|--type) target="$a";; esac
  case "$a" in -o|-out|--list-types) out=1;; esac
  prev="$a"
done
case "$*" in *--list-types*) target=TARGETS;; esac
if [ "$tool" = wl-paste ]; then out=1; fi
if [ $out = 1 ]; then
  f="` + dir + `/$tool.out.$(echo "$target" | tr '/ +;=' '_____')"
  [ -f "$f" ] && cat "$f" && exit 0
  exit 1
fi
cat > "` + dir + `/$tool.stdin"
`
	for _, tool := range []string{"xclip", "wl-copy", "wl-paste"} {
		if err := os.WriteFile(filepath.Join(dir, tool), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+"/usr/bin:/bin")
	for _, k := range []string{"DISPLAY", "WAYLAND_DISPLAY", "TMUX", "SSH_CONNECTION", "SSH_TTY"} {
		t.Setenv(k, "")
	}
	return dir
}

func outFile(dir, tool, target string) string {
	return filepath.Join(dir, tool+".out."+strings.NewReplacer("/", "_", " ", "_", "+", "_", ";", "_", "=", "_").Replace(target))
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteXclipText(t *testing.T) {
	dir := fakeTools(t)
	t.Setenv("DISPLAY", ":99")
	c := &Clipboard{Cache: &Cache{Dir: t.TempDir()}, System: &System{}}
	text := "hello " + contextref.LinkFor(termRec("ctx_t"))
	r := c.Write(text, frag("env_a", termRec("ctx_t")))
	if r.Err() != nil || !r.Cached || r.System != "xclip" || r.NeedOSC52 {
		t.Fatalf("result %+v", r)
	}
	if got := readFile(t, filepath.Join(dir, "xclip.stdin")); got != text {
		t.Errorf("xclip got %q", got)
	}
	if got := readFile(t, filepath.Join(dir, "xclip.args")); strings.TrimSpace(got) != "-selection clipboard -in" {
		t.Errorf("xclip args %q", got)
	}
}

func TestWriteRichTargets(t *testing.T) {
	for _, tc := range []struct{ tool, env, target, wantArgs string }{
		{"xclip", "DISPLAY", HTMLMIME, "-selection clipboard -in -t text/html"},
		{"xclip", "DISPLAY", contextref.FragmentMIME, "-selection clipboard -in -t " + contextref.FragmentMIME},
		{"wl-copy", "WAYLAND_DISPLAY", HTMLMIME, "--type text/html"},
		{"wl-copy", "WAYLAND_DISPLAY", contextref.FragmentMIME, "--type " + contextref.FragmentMIME},
	} {
		t.Run(tc.tool+" "+tc.target, func(t *testing.T) {
			dir := fakeTools(t)
			t.Setenv(tc.env, "x")
			c := &Clipboard{Cache: &Cache{Dir: t.TempDir()}, System: &System{RichTarget: tc.target}}
			text := "a <b> " + contextref.LinkFor(termRec("ctx_t"))
			f := frag("env_a", termRec("ctx_t"))
			r := c.Write(text, f)
			if r.Err() != nil || r.System != tc.tool || r.Target != tc.target {
				t.Fatalf("result %+v", r)
			}
			if got := strings.TrimSpace(readFile(t, filepath.Join(dir, tc.tool+".args"))); got != tc.wantArgs {
				t.Errorf("args %q, want %q", got, tc.wantArgs)
			}
			back, err := contextref.DecodeFragment([]byte(readFile(t, filepath.Join(dir, tc.tool+".stdin"))))
			if err != nil || back.Source.EnvironmentID != "env_a" || len(back.Records) != 1 {
				t.Errorf("written carrier does not decode: %v %+v", err, back)
			}
		})
	}
}

// TestWriteHTMLCarrier: a copy with its own HTML goes out as the <div>
// carrier around that HTML, unchanged, and reads back with its fragment
// and the HTML's text.
func TestWriteHTMLCarrier(t *testing.T) {
	dir := fakeTools(t)
	t.Setenv("DISPLAY", "x")
	c := &Clipboard{Cache: &Cache{Dir: t.TempDir()}, System: &System{RichTarget: HTMLMIME}}
	text := "see " + contextref.LinkFor(termRec("ctx_t"))
	own := "<p>see <code>T1</code></p>"
	r := c.WriteHTML(text, own, frag("env_a", termRec("ctx_t")))
	if r.Err() != nil || r.Target != HTMLMIME {
		t.Fatalf("result %+v", r)
	}
	written := readFile(t, filepath.Join(dir, "xclip.stdin"))
	if !strings.HasPrefix(written, `<div data-t3-context-fragment="`) || !strings.HasSuffix(written, `">`+own+`</div>`) {
		t.Fatalf("carrier %q", written)
	}
	os.WriteFile(outFile(dir, "xclip", "TARGETS"), []byte("TARGETS\ntext/html\n"), 0o644)
	os.WriteFile(outFile(dir, "xclip", "text/html"), []byte(written), 0o644)
	clip, err := (&System{}).Read()
	if err != nil || clip.Fragment == nil || len(clip.Fragment.Records) != 1 || !strings.Contains(clip.Text, "see T1") {
		t.Fatalf("div carrier reads back as %+v %v", clip, err)
	}
}

func TestWriteNoToolAsksOSC52(t *testing.T) {
	fakeTools(t) // no DISPLAY: no tool applies
	t.Setenv("TMUX", "/tmp/tmux-1/default,1,0")
	c := &Clipboard{Cache: &Cache{Dir: t.TempDir()}, System: &System{}}
	r := c.Write("plain", nil)
	if !r.NeedOSC52 || r.Cached {
		t.Errorf("result %+v: want OSC 52 and no cache entry for a copy without chips", r)
	}
}

func TestReadXclipTargets(t *testing.T) {
	dir := fakeTools(t)
	t.Setenv("DISPLAY", ":99")
	text := "see " + contextref.LinkFor(termRec("ctx_t"))
	js, _ := frag("env_b", termRec("ctx_t")).Marshal()
	html, _ := contextref.FragmentHTML(text, frag("env_b", termRec("ctx_t")))
	os.WriteFile(outFile(dir, "xclip", "text"), []byte(text), 0o644)

	// custom target
	os.WriteFile(outFile(dir, "xclip", "TARGETS"), []byte("TARGETS\nUTF8_STRING\n"+contextref.FragmentMIME+"\n"), 0o644)
	os.WriteFile(outFile(dir, "xclip", contextref.FragmentMIME), js, 0o644)
	clip, err := (&System{}).Read()
	if err != nil || clip.Text != text || clip.Fragment == nil || clip.Fragment.Source.EnvironmentID != "env_b" {
		t.Fatalf("custom target: %+v %v", clip, err)
	}
	// html carrier only (as a browser offers it)
	os.WriteFile(outFile(dir, "xclip", "TARGETS"), []byte("TARGETS\ntext/html\n"), 0o644)
	os.WriteFile(outFile(dir, "xclip", "text/html"), []byte(html), 0o644)
	clip, err = (&System{}).Read()
	if err != nil || clip.Text != text || clip.Fragment == nil {
		t.Fatalf("html carrier: %+v %v", clip, err)
	}
	// a broken custom target: plain text and a reason
	os.WriteFile(outFile(dir, "xclip", "TARGETS"), []byte("UTF8_STRING\n"+contextref.FragmentMIME+"\n"), 0o644)
	os.WriteFile(outFile(dir, "xclip", contextref.FragmentMIME), []byte(`{"version":1`), 0o644)
	clip, err = (&System{}).Read()
	if err != nil || clip.Text != text || clip.Fragment != nil || clip.Reason == "" {
		t.Fatalf("broken target: %+v %v", clip, err)
	}
}

func TestReadWlPaste(t *testing.T) {
	dir := fakeTools(t)
	t.Setenv("WAYLAND_DISPLAY", "wayland-0")
	text := "see " + contextref.LinkFor(termRec("ctx_t"))
	js, _ := frag("env_b", termRec("ctx_t")).Marshal()
	os.WriteFile(outFile(dir, "wl-paste", "TARGETS"), []byte("text/plain\n"+contextref.FragmentMIME+"\n"), 0o644)
	os.WriteFile(outFile(dir, "wl-paste", "text"), []byte(text), 0o644)
	os.WriteFile(outFile(dir, "wl-paste", contextref.FragmentMIME), js, 0o644)
	clip, err := (&System{}).Read()
	if err != nil || clip.Text != text || clip.Fragment == nil {
		t.Fatalf("%+v %v", clip, err)
	}
	// an image and no text
	os.WriteFile(outFile(dir, "wl-paste", "TARGETS"), []byte("image/png\n"), 0o644)
	os.WriteFile(outFile(dir, "wl-paste", "image/png"), []byte("\x89PNG"), 0o644)
	clip, err = (&System{}).Read()
	if err != nil || !bytes.Equal(clip.Image, []byte("\x89PNG")) {
		t.Fatalf("image: %+v %v", clip, err)
	}
}

func TestRegistry(t *testing.T) {
	r := &Registry{Path: filepath.Join(t.TempDir(), "state", "environments.json")}
	if _, ok := r.Lookup("env_a"); ok {
		t.Fatal("empty registry knows env_a")
	}
	if err := r.Register("env_a", "/data/a"); err != nil {
		t.Fatal(err)
	}
	if err := r.Register("env_b", "/data/b"); err != nil {
		t.Fatal(err)
	}
	if d, ok := r.Lookup("env_a"); !ok || d != "/data/a" {
		t.Errorf("env_a → %q %v", d, ok)
	}
	info, err := os.Stat(r.Path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("registry file: %v %v", info, err)
	}
}

// localStore adopts into an asset store with a map of bindings.
type localStore struct {
	as    *assets.Store
	binds map[string]string
	n     int
}

func (l *localStore) Rebind(id string) (string, error) {
	if b, ok := l.binds[id]; ok {
		id = b
	}
	if !l.as.Has(id) {
		return "", errors.New("its bytes are gone")
	}
	l.n++
	local := fmt.Sprintf("att_new%d", l.n)
	l.binds[local] = id
	return local, nil
}

func (l *localStore) Adopt(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	id, _, err := l.as.Put(f)
	if err != nil {
		return "", err
	}
	l.n++
	local := fmt.Sprintf("att_new%d", l.n)
	l.binds[local] = id
	return local, nil
}

func TestImportAcrossEnvironments(t *testing.T) {
	dataA, dataB := t.TempDir(), t.TempDir()
	asA, _ := assets.Open(filepath.Join(dataA, "assets"), 0)
	asB, _ := assets.Open(filepath.Join(dataB, "assets"), 0)
	assetID, _, err := asA.Put(strings.NewReader("PNG"))
	if err != nil {
		t.Fatal(err)
	}
	img := imageRec("att_a1", assetID)
	text := "look " + contextref.LinkFor(img) + " and " + contextref.LinkFor(termRec("ctx_t"))
	f := frag("env_a", img, termRec("ctx_t"))
	reg := &Registry{Path: filepath.Join(t.TempDir(), "environments.json")}
	_ = reg.Register("env_a", dataA)
	local := &localStore{as: asB, binds: map[string]string{}}

	res := Import(text, f, nil, "env_b", reg.Lookup, local)
	if len(res.Notes) != 0 || len(res.Records) != 2 {
		t.Fatalf("import: %+v", res)
	}
	var newImg *contextref.ImageRecord
	for _, r := range res.Records {
		if r, ok := r.(*contextref.ImageRecord); ok {
			newImg = r
		}
	}
	if newImg == nil || newImg.ContextID != "att_new1" || newImg.AttachmentID != "att_new1" {
		t.Fatalf("image record %+v", newImg)
	}
	if !strings.Contains(res.Text, "t3-context://v1/image/att_new1") || strings.Contains(res.Text, "att_a1") {
		t.Errorf("links not rewritten: %q", res.Text)
	}
	if !asB.Has(local.binds["att_new1"]) {
		t.Error("the image bytes are not in B's asset store")
	}
	if err := CheckLinks(res.Text, res.Records); err != nil {
		t.Error(err)
	}

	// unknown environment: the image stays unresolved with a reason; the
	// terminal excerpt still comes in.
	res = Import(text, frag("env_zzz", img, termRec("ctx_t")), nil, "env_b", reg.Lookup, local)
	if len(res.Records) != 1 || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "unknown") || res.Text != text {
		t.Errorf("unknown env: %+v", res)
	}
	// bytes gone
	gone := imageRec("att_a2", "sha256-"+strings.Repeat("0", 64))
	res = Import(contextref.LinkFor(gone), frag("env_a", gone), nil, "env_b", reg.Lookup, local)
	if len(res.Records) != 0 || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "gone") {
		t.Errorf("bytes gone: %+v", res)
	}
	// records the draft holds keep theirs
	res = Import(text, f, []contextref.Record{termRec("ctx_t"), imageRec("att_a1", "x")}, "env_b", reg.Lookup, local)
	if len(res.Records) != 0 || res.Text != text {
		t.Errorf("held records were imported again: %+v", res)
	}
}

func TestImportPreviewAnnotationFollowsScreenshot(t *testing.T) {
	data := t.TempDir()
	as, _ := assets.Open(filepath.Join(data, "assets"), 0)
	id, _, _ := as.Put(strings.NewReader("PNG"))
	img := imageRec("ann_1", id)
	shot := "ann_1"
	pa := &contextref.PreviewAnnotationRecord{Base: contextref.NewBase(contextref.KindPreviewAnnotation, contextref.ToContextID("annotation-ann_1"), "Checkout"),
		AnnotationID: "ann_1", PageURL: "http://x/", Comment: "bigger", StyleChanges: []string{}, ScreenshotContextID: &shot}
	text := contextref.LinkFor(pa) + " " + contextref.LinkFor(img)
	local := &localStore{as: as, binds: map[string]string{}}
	res := Import(text, frag("env_a", pa, img), nil, "env_a", nil, local)
	if len(res.Records) != 2 {
		t.Fatalf("%+v", res)
	}
	for _, r := range res.Records {
		if p, ok := r.(*contextref.PreviewAnnotationRecord); ok && (p.ScreenshotContextID == nil || *p.ScreenshotContextID != "att_new1") {
			t.Errorf("screenshot link not rebuilt: %v", p.ScreenshotContextID)
		}
	}
	if *pa.ScreenshotContextID != "ann_1" {
		t.Error("the fragment's record was changed in place")
	}
}

// TestImportRulesCoverEveryKind fails when a kind of the contract has no
// import rule of its own.
func TestImportRulesCoverEveryKind(t *testing.T) {
	for _, kind := range contextref.KnownKinds {
		if _, ok := RuleFor(kind); !ok {
			t.Errorf("kind %q has no import rule", kind)
		}
	}
	if len(importRules) != len(contextref.KnownKinds) {
		t.Errorf("%d import rules for %d kinds", len(importRules), len(contextref.KnownKinds))
	}
}

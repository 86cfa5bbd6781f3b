// Tests of the fuzzy picker: ranking, selection, asynchronous items, the
// incremental filter, drawing widths, sanitizing and states; plus benchmarks
// of filtering and drawing over 100k paths.
package composer

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/sahilm/fuzzy"
)

func pickerTestItems(titles ...string) []PickerItem {
	items := make([]PickerItem, len(titles))
	for i, t := range titles {
		items[i] = PickerItem{Title: t, Value: t}
	}
	return items
}

// pickerTestRows returns the values of the filtered list in order.
func pickerTestRows(p *Picker) []string {
	var out []string
	for row := range p.Len() {
		out = append(out, p.items[p.at(row)].Value)
	}
	return out
}

func TestPickerFuzzyOrder(t *testing.T) {
	p := NewPicker("@")
	p.SetItems(pickerTestItems(
		"internal/mongo/conn.go",
		"docs/manual-go.md",
		"README.md",
		"magic/go.sum",
		"cmd/migrate/main_test.go",
		"main.go",
	))
	p.SetQuery("mgo")
	rows := pickerTestRows(p)
	if len(rows) == 0 || rows[0] != "main.go" {
		t.Fatalf("query mgo: %q, want main.go first", rows)
	}
	if slices.Contains(rows, "README.md") {
		t.Errorf("README.md matched mgo: %q", rows)
	}
	if it, ok := p.Selected(); !ok || it.Value != "main.go" {
		t.Errorf("selected %v %v", it, ok)
	}
	// Case-insensitive.
	p.SetQuery("MGO")
	if rows := pickerTestRows(p); len(rows) == 0 || rows[0] != "main.go" {
		t.Errorf("query MGO: %q", rows)
	}
}

func TestPickerEmptyQueryKeepsOrder(t *testing.T) {
	titles := []string{"z.go", "a.go", "m.go"}
	p := NewPicker("@")
	p.SetItems(pickerTestItems(titles...))
	if got := pickerTestRows(p); !slices.Equal(got, titles) || p.Len() != 3 || p.Total() != 3 {
		t.Errorf("empty query: %q", got)
	}
	p.SetQuery("a")
	p.SetQuery("")
	if got := pickerTestRows(p); !slices.Equal(got, titles) {
		t.Errorf("query cleared: %q", got)
	}
}

func TestPickerMoveWraps(t *testing.T) {
	p := NewPicker("@")
	p.Move(1) // no items: no panic
	if _, ok := p.Selected(); ok {
		t.Error("selection without items")
	}
	p.SetItems(pickerTestItems("a", "b", "c"))
	sel := func() string { it, _ := p.Selected(); return it.Value }
	if sel() != "a" {
		t.Fatal(sel())
	}
	p.Move(-1)
	if sel() != "c" {
		t.Errorf("up from the first: %s", sel())
	}
	p.Move(1)
	if sel() != "a" {
		t.Errorf("down from the last: %s", sel())
	}
	p.Move(7)
	if sel() != "b" {
		t.Errorf("down 7: %s", sel())
	}
	p.Move(-8)
	if sel() != "c" {
		t.Errorf("up 8: %s", sel())
	}
	// A new query goes back to the best match.
	p.SetQuery("b")
	if sel() != "b" {
		t.Errorf("after query: %s", sel())
	}
}

func TestPickerItemsAfterQuery(t *testing.T) {
	p := NewPicker("@")
	p.SetLoading(true)
	p.SetQuery("mgo")
	if p.Len() != 0 {
		t.Fatal("matches before items")
	}
	if v := ansi.Strip(p.View(40, 6)); !strings.Contains(v, "loading…") {
		t.Errorf("loading state not shown:\n%s", v)
	}
	p.SetItems(pickerTestItems("x.txt", "main.go", "mongo.go"))
	if p.Query() != "mgo" {
		t.Errorf("query lost: %q", p.Query())
	}
	if rows := pickerTestRows(p); len(rows) != 2 || rows[0] != "main.go" {
		t.Errorf("after items: %q", rows)
	}
	if v := ansi.Strip(p.View(40, 6)); strings.Contains(v, "loading") || !strings.Contains(v, "main.go") {
		t.Errorf("items not shown:\n%s", v)
	}
	// New items keep the selected item when it is still listed.
	p.Move(1)
	it, _ := p.Selected()
	p.SetItems(pickerTestItems("mongo.go", "a.txt", "main.go", "more/go.mod"))
	if got, _ := p.Selected(); got.Value != it.Value {
		t.Errorf("selection moved from %q to %q", it.Value, got.Value)
	}
	p.SetItems(pickerTestItems("main.go"))
	if got, _ := p.Selected(); got.Value != "main.go" {
		t.Errorf("selection after its item left: %q", got.Value)
	}
}

// The incremental filter (narrowing the previous matches) gives exactly the
// result of a fresh filter, for every prefix typed and after deletions.
func TestPickerIncrementalMatchesFresh(t *testing.T) {
	items := pickerTestItems(pickerTestPaths(3000)...)
	items = append(items, pickerTestItems("\u212Aelvin.go", "ſtraße/Über.go", "KELVIN.md", "名前/コード.go")...)
	typed := []string{"s", "sr", "src", "src/", "src/m", "src/ma", "src/m", "src/mo", "k", "ke", "kel", "s", "st", "str", "ü", "üb", "名", "名コ"}
	inc := NewPicker("@")
	inc.SetItems(items)
	for _, q := range typed {
		inc.SetQuery(q)
		fresh := NewPicker("@")
		fresh.SetItems(items)
		fresh.SetQuery(q)
		if got, want := pickerTestRows(inc), pickerTestRows(fresh); !slices.Equal(got, want) {
			t.Fatalf("query %q: incremental %d rows, fresh %d rows", q, len(got), len(want))
		}
	}
	inc.SetQuery("k")
	if rows := pickerTestRows(inc); !slices.Contains(rows, "\u212Aelvin.go") || !slices.Contains(rows, "KELVIN.md") {
		t.Errorf("query k misses Unicode case folding: %q", rows)
	}
}

var pickerTestWide = []string{
	"文档/说明书/非常长的文件名称用于测试宽度.md",
	"🎉party/👨‍👩‍👧family/🏳️‍🌈.txt",
	"e\u0301te\u0301/cafe\u0301.go",
	"src/internal/really/deeply/nested/package/with/a/very/long/path/main.go",
	"a.go",
	"混合mixed/テスト_test.go",
	"\x1b[2Jevil\x1b]0;pwn\x07name\u009b31m.go",
}

func TestPickerViewWidths(t *testing.T) {
	items := pickerTestItems(pickerTestWide...)
	items[4].Detail = "详细说明 with a detail that is rather long 🎉🎉🎉"
	items[0].Detail = "short"
	for _, q := range []string{"", "go", "文", "🎉", "e"} {
		p := NewPicker("@")
		p.SetItems(items)
		p.SetQuery(q)
		for width := 1; width <= 120; width++ {
			for _, rows := range []int{1, 2, 3, 4, 6, 12} {
				for move := 0; move < 3; move++ {
					p.Move(1)
					v := p.View(width, rows)
					lines := strings.Split(v, "\n")
					if len(lines) > rows {
						t.Fatalf("q=%q width %d rows %d: %d lines", q, width, rows, len(lines))
					}
					for _, l := range lines {
						if w := ansi.StringWidth(l); w > width {
							t.Fatalf("q=%q width %d rows %d: line of %d columns: %q", q, width, rows, w, l)
						}
					}
				}
			}
		}
	}
	// A bordered box has lines of exactly the width.
	p := NewPicker("@")
	p.SetItems(items)
	for width := 20; width <= 120; width++ {
		for _, l := range strings.Split(p.View(width, 10), "\n") {
			if w := ansi.StringWidth(l); w != width {
				t.Fatalf("width %d: bordered line of %d columns: %q", width, w, ansi.Strip(l))
			}
		}
	}
}

func TestPickerViewSanitizes(t *testing.T) {
	p := NewPicker("@\x1b[31m")
	items := pickerTestItems(pickerTestWide[6], "ok\r\nline\ttab\x00\x7f\u202eevil.go")
	items[0].Detail = "\x1b[41mred\x1b[0m \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\"
	p.SetItems(items)
	p.SetQuery("\x1b[2J")
	p.SetQuery("")
	p.SetError(nil)
	for _, width := range []int{20, 40, 80} {
		v := p.View(width, 8)
		for _, bad := range []string{"\x1b[2J", "\x1b]", "\x07", "\u009b", "\x1b[31m", "\x1b[41m", "\r", "\t", "\x00", "\x7f", "\u202e"} {
			if strings.Contains(v, bad) {
				t.Errorf("width %d: view holds %q:\n%q", width, bad, v)
			}
		}
		plain := ansi.Strip(v)
		for _, r := range plain {
			if r != '\n' && (r < 0x20 || (r >= 0x7f && r <= 0x9f)) {
				t.Errorf("width %d: control %U after stripping styles", width, r)
			}
		}
		if width == 80 && (!strings.Contains(plain, "evilname31m.go") || !strings.Contains(plain, "ok  line tab") || !strings.Contains(plain, "red link")) {
			t.Errorf("sanitized text missing:\n%s", plain)
		}
	}
	// What is inserted is the item as given, not the drawn text.
	if it, _ := p.Selected(); it.Value != pickerTestWide[6] {
		t.Errorf("value changed: %q", it.Value)
	}
}

func TestPickerViewStates(t *testing.T) {
	p := NewPicker("@")
	if v := ansi.Strip(p.View(40, 5)); !strings.Contains(v, "nothing to pick") {
		t.Errorf("empty:\n%s", v)
	}
	p.SetLoading(true)
	if v := ansi.Strip(p.View(40, 5)); !strings.Contains(v, "loading…") {
		t.Errorf("loading:\n%s", v)
	}
	p.SetError(errors.New("boom\x1b[2J"))
	if v := p.View(40, 5); !strings.Contains(ansi.Strip(v), "error: boom") || strings.Contains(v, "\x1b[2J") {
		t.Errorf("error:\n%q", v)
	}
	p.SetItems(pickerTestItems("a.go", "b.go"))
	p.SetQuery("zzz")
	if v := ansi.Strip(p.View(40, 5)); !strings.Contains(v, "no matches") || !strings.Contains(v, "@ zzz — 0 of 2") {
		t.Errorf("no matches:\n%s", v)
	}
	if p.View(0, 5) != "" || p.View(40, 0) != "" {
		t.Error("no room: not empty")
	}
	if v := ansi.Strip(p.View(40, 1)); v != "@ zzz — 0 of 2" {
		t.Errorf("one line: %q", v)
	}
}

func TestPickerViewHeaderAndRows(t *testing.T) {
	paths := pickerTestPaths(1201)
	paths = append(paths, "src/main.go", "src/manifest.json", "src/map.go")
	p := NewPicker("@")
	p.SetItems(pickerTestItems(paths...))
	p.SetTruncated(false)
	p.SetQuery("src/ma")
	n := p.Len()
	want := fmt.Sprintf("@ src/ma — %d of 1204", n)
	v := p.View(60, 8)
	lines := strings.Split(v, "\n")
	if !strings.Contains(ansi.Strip(lines[0]), want) {
		t.Errorf("header %q, want %q", ansi.Strip(lines[0]), want)
	}
	// Only the visible rows are drawn: 8 lines = top + 6 rows + bottom.
	if len(lines) != min(8, n+2) {
		t.Errorf("%d lines for %d matches", len(lines), n)
	}
	// The selected row is reversed, and only it.
	reversed := 0
	for _, l := range lines {
		if strings.Contains(l, "\x1b[7") || strings.Contains(l, ";7m") || strings.Contains(l, ";7;") {
			reversed++
		}
	}
	if reversed != 1 {
		t.Errorf("%d reversed lines:\n%q", reversed, v)
	}
	// Matched characters are styled apart from the rest of the row.
	if !strings.Contains(lines[1], "\x1b[") {
		t.Errorf("no highlight in %q", lines[1])
	}
	// Moving past the window scrolls it.
	p.Move(-1)
	last, _ := p.Selected()
	if v := ansi.Strip(p.View(200, 8)); !strings.Contains(v, last.Title) {
		t.Errorf("the selected last row is not visible:\n%s", v)
	}
	p.SetTruncated(true)
	if v := ansi.Strip(p.View(60, 8)); !strings.Contains(v, "of 1204+") {
		t.Errorf("truncated count missing:\n%s", v)
	}
}

// pickerTestPaths returns n deterministic, varied repository-like paths.
func pickerTestPaths(n int) []string {
	dirs := []string{"src", "internal", "cmd", "pkg", "docs", "test", "vendor", "web/app", "api/v1", "tools"}
	subs := []string{"auth", "store", "render", "model", "handler", "util", "config", "migrate", "cache", "queue", "editor", "picker"}
	names := []string{"main", "server", "client", "types", "errors", "options", "registry", "manager", "parser", "writer", "reader", "index"}
	exts := []string{".go", "_test.go", ".md", ".json", ".ts", ".tsx", ".yaml", ".sql"}
	out := make([]string, n)
	x := uint32(2463534242)
	next := func(k int) int {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		return int(x % uint32(k))
	}
	for i := range out {
		out[i] = fmt.Sprintf("%s/%s/%s%d/%s%s", dirs[next(len(dirs))], subs[next(len(subs))],
			subs[next(len(subs))], i%97, names[next(len(names))], exts[next(len(exts))])
	}
	return out
}

func BenchmarkPickerFilter(b *testing.B) {
	items := pickerTestItems(pickerTestPaths(100000)...)
	p := NewPicker("@")
	p.SetItems(items)
	for _, q := range []string{"a", "mgo", "src/ma", "zzz"} {
		b.Run("fresh/"+q, func(b *testing.B) {
			for b.Loop() {
				p.SetQuery("")
				_ = p.Len() // forget the previous matches: a full scan each time
				p.SetQuery(q)
				_ = p.Len()
			}
		})
	}
	// Typing one character at a time, each keystroke refiltering.
	b.Run("typing/src-main", func(b *testing.B) {
		q := "src/main"
		for b.Loop() {
			for i := 1; i <= len(q); i++ {
				p.SetQuery(q[:i])
				_ = p.Len()
			}
			p.SetQuery("")
		}
	})
}

func BenchmarkPickerView(b *testing.B) {
	p := NewPicker("@")
	p.SetItems(pickerTestItems(pickerTestPaths(100000)...))
	p.SetQuery("src/ma")
	_ = p.Len()
	for b.Loop() {
		_ = p.View(100, 12)
	}
}

// pickerScoreASCII must agree with sahilm/fuzzy on every ASCII title and
// pattern: same match decision, same score.
func TestPickerScoreASCIIMatchesFuzzy(t *testing.T) {
	const alphabet = "abcABCxyzXYZ/-_ .\\09gGoOmM"
	x := uint64(88172645463325252)
	rnd := func(n int) int {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return int(x % uint64(n))
	}
	word := func(maxLen int) string {
		b := make([]byte, rnd(maxLen+1))
		for i := range b {
			b[i] = alphabet[rnd(len(alphabet))]
		}
		return string(b)
	}
	titles := append(pickerTestPaths(300), "main.go", "cmd/migrate/main_test.go", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "a\x00b", "")
	for range 3000 {
		titles = append(titles, word(24))
	}
	patterns := []string{"a", "mgo", "src/ma", "MaIn", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "a\x00", "/", " "}
	for range 400 {
		patterns = append(patterns, word(5))
	}
	for _, pat := range patterns {
		if pat == "" {
			continue
		}
		want := map[int]int{}
		for _, m := range fuzzy.FindNoSort(pat, titles) {
			want[m.Index] = m.Score
		}
		for i, title := range titles {
			score, ok := pickerScoreASCII([]byte(pat), title)
			ws, wok := want[i]
			if ok != wok || (ok && score != ws) {
				t.Fatalf("pattern %q, title %q: got (%d, %v), fuzzy (%d, %v)", pat, title, score, ok, ws, wok)
			}
		}
	}
}

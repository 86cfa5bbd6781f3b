package composer

import (
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/contextref"
)

func termRec(id string) contextref.Record {
	return &contextref.TerminalRecord{Base: contextref.NewBase(contextref.KindTerminal, id, "Terminal 1 lines 1-2"),
		TerminalID: "t1", TerminalLabel: "Terminal 1", LineStart: 1, LineEnd: 2, Text: "a\nb"}
}

func fileRec(id string) contextref.Record {
	return &contextref.FileRecord{AttachmentRecord: contextref.AttachmentRecord{Base: contextref.NewBase(contextref.KindFile, id, "a.txt"),
		AttachmentID: id, Name: "a.txt", MimeType: "text/plain", SizeBytes: 3}}
}

func imageRec(id string) contextref.Record {
	return &contextref.ImageRecord{AttachmentRecord: contextref.AttachmentRecord{Base: contextref.NewBase(contextref.KindImage, id, "shot.png"),
		AttachmentID: id, Name: "shot.png", MimeType: "image/png", SizeBytes: 10}}
}

func mentionRec(id, path string) contextref.Record {
	return &contextref.MentionRecord{Base: contextref.NewBase(contextref.KindMention, id, path), Path: path}
}

func typeString(d *Draft, s string) {
	for _, r := range s {
		d.TypeRune(r)
	}
}

func TestTypingAndChipsMakeCanonicalMarkdown(t *testing.T) {
	d := NewDraft()
	typeString(d, "Fix ")
	d.InsertChip(termRec("ctx_t"), "")
	typeString(d, " and see ")
	d.InsertChip(imageRec("img_1"), "shot [1].png")
	want := "Fix [Terminal 1 lines 1-2](t3-context://v1/terminal/ctx_t) and see ![shot 1 .png](t3-context://v1/image/img_1)"
	if got := d.Markdown(); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	if got := d.Caret(); got != (Pos{0, 15}) {
		t.Fatalf("caret %v: a chip is one atom", got)
	}
}

func TestChipIsOneUnitForMotionAndDeletion(t *testing.T) {
	d := NewDraft()
	typeString(d, "a ")
	d.InsertChip(fileRec("f1"), "")
	typeString(d, " b")
	d.MoveLineStart(false)
	d.MoveRight(false)
	d.MoveRight(false)
	d.MoveRight(true) // select the chip
	if a, b, ok := d.Selection(); !ok || a != (Pos{0, 2}) || b != (Pos{0, 3}) {
		t.Fatalf("selection %v %v %v", a, b, ok)
	}
	d.MoveRight(false)
	d.DeleteBackward()
	if got := d.Markdown(); got != "a  b" {
		t.Fatalf("after deleting the chip: %q", got)
	}
	if _, ok := d.Record("f1"); ok {
		t.Fatal("a file exists only as chips: its record must go with its last chip")
	}
	d.Undo()
	if _, ok := d.Record("f1"); !ok {
		t.Fatal("undoing the chip deletion must bring its record back")
	}
	if !strings.Contains(d.Markdown(), "t3-context://v1/file/f1") {
		t.Fatalf("undo did not restore the chip: %q", d.Markdown())
	}
	d.Redo()
	if _, ok := d.Record("f1"); ok {
		t.Fatal("redo must drop the record again")
	}
}

func TestTwoChipsOneRecord(t *testing.T) {
	d := NewDraft()
	rec := termRec("t")
	d.InsertChip(rec, "first")
	d.TypeRune(' ')
	d.InsertChip(rec, "second")
	if d.References("t") != 2 {
		t.Fatalf("references = %d", d.References("t"))
	}
	d.DeleteBackward()
	if _, ok := d.Record("t"); !ok {
		t.Fatal("removing one occurrence must keep the record another chip points at")
	}
	d.MoveDocStart(false)
	d.DeleteForward()
	if _, ok := d.Record("t"); ok {
		t.Fatal("record must go with the last chip")
	}
}

func TestImagesStayOnTheShelf(t *testing.T) {
	d := NewDraft()
	d.InsertChip(imageRec("img"), "")
	d.DeleteBackward()
	if _, ok := d.Record("img"); !ok || !slices.Equal(d.Shelf(), []string{"img"}) {
		t.Fatal("deleting an image chip leaves the image on the shelf")
	}
	d.InsertChip(imageRec("img"), "again")
	if err := d.RemoveShelfImage("img", false); !errors.Is(err, ErrNeedsConfirmation) {
		t.Fatalf("removing a referenced shelf image needs confirmation, got %v", err)
	}
	if d.References("img") != 1 {
		t.Fatal("an unconfirmed removal must change nothing")
	}
	typeString(d, " tail")
	if err := d.RemoveShelfImage("img", true); err != nil {
		t.Fatal(err)
	}
	if d.References("img") != 0 || len(d.Shelf()) != 0 || d.Markdown() != " tail" {
		t.Fatalf("confirmed removal must remove chips and image: %q %v", d.Markdown(), d.Shelf())
	}
	if d.Caret() != (Pos{0, 5}) {
		t.Fatalf("caret after removal %v", d.Caret())
	}
	d.Undo()
	if d.References("img") != 1 || !slices.Equal(d.Shelf(), []string{"img"}) {
		t.Fatal("one undo brings back the image and its chips")
	}
}

func TestUndoGrouping(t *testing.T) {
	d := NewDraft()
	typeString(d, "hello world")
	d.InsertText(" pasted\r\ntext")
	typeString(d, "!!")
	if d.Markdown() != "hello world pasted\ntext!!" {
		t.Fatalf("CRLF normalized: %q", d.Markdown())
	}
	d.Undo()
	if d.Markdown() != "hello world pasted\ntext" {
		t.Fatalf("undo takes back the typing run: %q", d.Markdown())
	}
	d.Undo()
	if d.Markdown() != "hello world" {
		t.Fatalf("undo takes back the paste in one step: %q", d.Markdown())
	}
	d.Undo()
	if d.Markdown() != "" {
		t.Fatalf("the first typing run is one step: %q", d.Markdown())
	}
	d.Redo()
	d.Redo()
	if d.Markdown() != "hello world pasted\ntext" {
		t.Fatalf("redo: %q", d.Markdown())
	}
	typeString(d, "x")
	if d.CanRedo() {
		t.Fatal("a new edit clears redo")
	}
	// Backspace runs are one step; motion ends a run.
	d2 := NewDraft()
	typeString(d2, "abcdef")
	d2.MoveLeft(false)
	d2.DeleteBackward()
	d2.DeleteBackward()
	d2.Undo()
	if d2.Markdown() != "abcdef" {
		t.Fatalf("backspace run undo: %q", d2.Markdown())
	}
}

func TestDeletions(t *testing.T) {
	cases := []struct {
		name string
		op   func(*Draft)
		want string
	}{
		{"word backward", (*Draft).DeleteWordBackward, "one two |four"},
		{"word forward", (*Draft).DeleteWordForward, "one two three|"},
		{"to line start", (*Draft).DeleteToLineStart, "|four"},
		{"to line end", (*Draft).DeleteToLineEnd, "one two three|"},
		{"char backward", (*Draft).DeleteBackward, "one two thre|four"},
		{"char forward", (*Draft).DeleteForward, "one two three|our"},
	}
	for _, c := range cases {
		d := NewDraft()
		typeString(d, "one two three four")
		d.SetCaret(Pos{0, 13}, false)
		if c.name != "word backward" {
			d.SetCaret(Pos{0, 14}, false)
		}
		if c.name == "word backward" || c.name == "to line start" || c.name == "char backward" || c.name == "word forward" || c.name == "to line end" || c.name == "char forward" {
			d.SetCaret(Pos{0, 14}, false)
		}
		d.DeleteBackward() // remove the space before "four": "one two three|four"
		c.op(d)
		got := d.Markdown()
		got = got[:d.Caret().Col] + "|" + got[d.Caret().Col:]
		if got != c.want {
			t.Errorf("%s: got %q want %q", c.name, got, c.want)
		}
	}
	d := NewDraft()
	typeString(d, "ab\ncd")
	d.SetCaret(Pos{1, 0}, false)
	d.DeleteToLineStart()
	if d.Markdown() != "abcd" {
		t.Fatalf("ctrl+u at a line start joins lines: %q", d.Markdown())
	}
	d.SetCaret(Pos{0, 4}, false)
	d.DeleteToLineEnd()
	if d.Markdown() != "abcd" {
		t.Fatalf("ctrl+k at the draft end does nothing: %q", d.Markdown())
	}
}

func TestWordMotionTreatsChipAsWord(t *testing.T) {
	d := NewDraft()
	typeString(d, "go, ")
	d.InsertChip(fileRec("f"), "")
	typeString(d, "  end")
	d.MoveDocStart(false)
	var stops []int
	for i := 0; i < 4; i++ {
		d.MoveWordRight(false)
		stops = append(stops, d.Caret().Col)
	}
	if !slices.Equal(stops, []int{2, 5, 10, 10}) {
		t.Fatalf("word stops %v", stops)
	}
	d.MoveWordLeft(false)
	d.MoveWordLeft(false)
	if d.Caret().Col != 4 {
		t.Fatalf("word left onto the chip start: %d", d.Caret().Col)
	}
}

func TestSelectionReplaceAndSelectAll(t *testing.T) {
	d := NewDraft()
	typeString(d, "hello\nworld")
	d.MoveLine(-1, true)
	d.InsertText("X")
	if d.Markdown() != "helloX" {
		t.Fatalf("replace selection: %q", d.Markdown())
	}
	d.SelectAll()
	d.TypeRune('z')
	if d.Markdown() != "z" {
		t.Fatalf("typing over select-all: %q", d.Markdown())
	}
}

func TestVerticalMotion(t *testing.T) {
	d := NewDraft()
	typeString(d, "abcdefghij klmnop\nxy\n0123456789")
	w := func(rune) int { return 1 }
	d.SetCaret(Pos{0, 3}, false)
	d.MoveVisual(1, 10, w, false) // row 2 of line 0 starts at "klmnop"
	if d.Caret() != (Pos{0, 14}) {
		t.Fatalf("visual down: %v", d.Caret())
	}
	d.MoveVisual(1, 10, w, false)
	if d.Caret() != (Pos{1, 2}) {
		t.Fatalf("visual down to a short line: %v", d.Caret())
	}
	d.MoveVisual(1, 10, w, false)
	if d.Caret() != (Pos{2, 3}) {
		t.Fatalf("goal column kept: %v", d.Caret())
	}
	d.MoveLine(-2, false)
	if d.Caret() != (Pos{0, 3}) {
		t.Fatalf("logical up: %v", d.Caret())
	}
	d.MoveVisual(-1, 10, w, false)
	if d.Caret() != (Pos{}) {
		t.Fatalf("visual up from the first row goes to the start: %v", d.Caret())
	}
}

func TestWrapLine(t *testing.T) {
	w := func(r rune) int {
		if r < 0 {
			return 6
		}
		if r >= 0x1100 {
			return 2
		}
		return 1
	}
	cases := []struct {
		text  string
		width int
		want  string
	}{
		{"hello world foo", 8, "hello |world |foo"},
		{"abcdefghijkl", 5, "abcde|fghij|kl"},
		{"世界世界世", 4, "世界|世界|世"},
		{"", 5, ""},
		{"ab\x00cd", 5, "ab|\x00|cd"}, // \x00 stands for a chip (width 6 > 5): its own row
	}
	for _, c := range cases {
		atoms := []rune(c.text)
		for i, a := range atoms {
			if a == 0 {
				atoms[i] = -1
			}
		}
		var parts []string
		for _, r := range WrapLine(atoms, c.width, w) {
			parts = append(parts, c.text[len(string([]rune(c.text)[:r.Start])):len(string([]rune(c.text)[:r.End]))])
		}
		if got := strings.Join(parts, "|"); got != c.want {
			t.Errorf("WrapLine(%q, %d) = %q, want %q", c.text, c.width, got, c.want)
		}
	}
}

func TestFromMarkdownRoundTrip(t *testing.T) {
	recs := []contextref.Record{termRec("t"), imageRec("img"), fileRec("f"), imageRec("unused"), mentionRec("orphan", "x.go")}
	md := "See [T](t3-context://v1/terminal/t) and !![shot](t3-context://v1/image/img)\n![f](t3-context://v1/file/f) [gone](t3-context://v1/skill/missing)"
	d := FromMarkdown(md, recs)
	if got := d.Markdown(); got != md {
		t.Fatalf("got  %q\nwant %q", got, md)
	}
	if _, ok := d.Record("orphan"); ok {
		t.Fatal("records no link points at are dropped")
	}
	if !slices.Equal(d.Shelf(), []string{"img", "unused"}) {
		t.Fatalf("image records go on the shelf: %v", d.Shelf())
	}
	if d.References("missing") != 1 {
		t.Fatal("a link to an unknown id is an (unresolved) chip")
	}
	if d.CanUndo() {
		t.Fatal("a loaded draft starts with no history")
	}
	e := FromMarkdown(d.Markdown(), d.Records())
	if e.chips[0].RefID == "" || !sameDraft(d, e) {
		t.Fatal("round trip differs")
	}
}

func TestPlaceholderMigration(t *testing.T) {
	recs := []contextref.Record{termRec("t1"), termRec("t2"), termRec("t3")}
	d := FromMarkdown("a \uFFFC b [x](t3-context://v1/terminal/t3)", recs)
	want := "[Terminal 1 lines 1-2](t3-context://v1/terminal/t2) a [Terminal 1 lines 1-2](t3-context://v1/terminal/t1) b [x](t3-context://v1/terminal/t3)"
	if got := d.Markdown(); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	d = FromMarkdown("\uFFFC and \uFFFC", recs[:1])
	if got := d.Markdown(); got != "[Terminal 1 lines 1-2](t3-context://v1/terminal/t1) and " {
		t.Fatalf("extra placeholders vanish: %q", got)
	}
}

func TestAppendChipKeepsCaret(t *testing.T) {
	d := NewDraft()
	typeString(d, "hello")
	d.SetCaret(Pos{0, 2}, false)
	d.AppendChip(termRec("t"), "")
	if d.Markdown() != "hello [Terminal 1 lines 1-2](t3-context://v1/terminal/t)" || d.Caret() != (Pos{0, 2}) {
		t.Fatalf("append: %q caret %v", d.Markdown(), d.Caret())
	}
	d.Undo()
	if d.Markdown() != "hello" {
		t.Fatalf("undo append: %q", d.Markdown())
	}
}

func TestInsertMarkdownImportsLinks(t *testing.T) {
	d := NewDraft()
	d.InsertMarkdown("x [T](t3-context://v1/terminal/t) y", []contextref.Record{termRec("t")})
	if d.References("t") != 1 {
		t.Fatal("pasted link is a chip")
	}
	if _, ok := d.Record("t"); !ok {
		t.Fatal("pasted record imported")
	}
	d.InsertText("[raw](t3-context://v1/file/f)")
	if d.References("f") != 0 {
		t.Fatal("InsertText keeps prose as prose")
	}
}

func TestControlCharactersDropped(t *testing.T) {
	d := NewDraft()
	d.InsertText("a\x1b[31mb\x07c\td\u009be")
	if got := d.Markdown(); got != "a[31mbc\tde" {
		t.Fatalf("got %q", got)
	}
}

// ---- property test ----

// chipView is a chip without its reference id.
type chipView struct{ Kind, ID, Label, Link string }

func sameDraft(a, b *Draft) bool {
	if a.lines.Len() != b.lines.Len() {
		return false
	}
	view := func(d *Draft, r rune) any {
		if r < 0 {
			c := d.chips[-r-1]
			return chipView{c.Kind, c.ContextID, c.Label, c.linkLabel()}
		}
		return r
	}
	for i := range a.lines.Len() {
		la, lb := a.lines.At(i).atoms, b.lines.At(i).atoms
		if len(la) != len(lb) {
			return false
		}
		for j := range la {
			if view(a, la[j]) != view(b, lb[j]) {
				return false
			}
		}
	}
	if !slices.Equal(a.shelf, b.shelf) || len(a.records) != len(b.records) {
		return false
	}
	for id, r := range a.records {
		o, ok := b.records[id]
		if !ok || string(mustJSON(r)) != string(mustJSON(o)) {
			return false
		}
	}
	return true
}

func mustJSON(r contextref.Record) []byte {
	b, err := contextref.MarshalRecord(r)
	if err != nil {
		panic(err)
	}
	return b
}

// checkInvariants is what must hold after every step.
func checkInvariants(t *testing.T, d *Draft, step string) {
	t.Helper()
	for _, p := range []Pos{d.caret, d.anchor} {
		if p.Line < 0 || p.Line >= d.lines.Len() || p.Col < 0 || p.Col > len(d.lines.At(p.Line).atoms) {
			t.Fatalf("%s: position %v outside the draft", step, p)
		}
	}
	counts := map[string]int{}
	for _, l := range d.lines.All() {
		for _, a := range l.atoms {
			if a == '\n' {
				t.Fatalf("%s: a line holds a line break", step)
			}
			if a < 0 && d.chips[-a-1].Citation != nil {
				// An assistant quote points at no record; its link parses.
				if occ := contextref.ValidCitations(d.chips[-a-1].source); len(occ) != 1 || occ[0].Start != 0 {
					t.Fatalf("%s: quote chip with link %q", step, d.chips[-a-1].source)
				}
				continue
			}
			if a < 0 {
				counts[d.chips[-a-1].ContextID]++
			}
		}
	}
	for id, n := range counts {
		if d.refs[id] != n {
			t.Fatalf("%s: refs[%s] = %d, chips = %d", step, id, d.refs[id], n)
		}
	}
	for id, n := range d.refs {
		if counts[id] != n {
			t.Fatalf("%s: refs[%s] = %d, chips = %d", step, id, n, counts[id])
		}
	}
	for id, r := range d.records {
		if counts[id] == 0 && !slices.Contains(d.shelf, id) {
			t.Fatalf("%s: record %s is neither referenced nor a shelf image", step, id)
		}
		if r.RecordBase().ContextID != id {
			t.Fatalf("%s: record indexed under the wrong id", step)
		}
	}
	for _, id := range d.shelf {
		if _, ok := d.records[id]; !ok {
			t.Fatalf("%s: shelf image %s has no record", step, id)
		}
	}
	for i, l := range d.lines.All() {
		if want := d.newLine(l.atoms).md; l.md != want {
			t.Fatalf("%s: line %d keeps Markdown %q, its atoms make %q", step, i, l.md, want)
		}
	}
	if got, want := d.Records(), d.sortRecords(); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: cached records %v, the draft holds %v", step, got, want)
	}
	back := FromMarkdown(d.Markdown(), d.Records())
	if !sameDraft(d, back) {
		t.Fatalf("%s: FromMarkdown(Markdown) differs:\n%q shelf %v records %d lines %d\n%q shelf %v records %d lines %d", step,
			d.Markdown(), d.shelf, len(d.records), d.lines.Len(), back.Markdown(), back.shelf, len(back.records), back.lines.Len())
	}
}

var alphabet = []rune("ab c!()-_.é世😀\n\t#*`>")

func randomText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteRune(alphabet[rng.Intn(len(alphabet))])
	}
	return b.String()
}

func randomRecord(rng *rand.Rand) contextref.Record {
	id := fmt.Sprintf("c%d", rng.Intn(6))
	switch rng.Intn(5) {
	case 0:
		return termRec("t" + id)
	case 1:
		return fileRec("f" + id)
	case 2:
		return imageRec("i" + id)
	case 3:
		return mentionRec("m"+id, "src/"+randomText(rng, 3))
	}
	return &contextref.SkillRecord{Base: contextref.NewBase(contextref.KindSkill, "s"+id, "$skill"), Name: "skill"}
}

func TestDraftProperties(t *testing.T) {
	w := func(r rune) int {
		if r < 0 {
			return 8
		}
		if r >= 0x1100 {
			return 2
		}
		return 1
	}
	seeds := 300
	if testing.Short() {
		seeds = 40
	}
	for seed := 0; seed < seeds; seed++ {
		rng := rand.New(rand.NewSource(int64(seed)))
		d := NewDraft()
		var trace []string
		for step := 0; step < 120; step++ {
			ext := rng.Intn(3) == 0
			var name string
			switch op := rng.Intn(24); op {
			case 0, 1, 2, 3:
				r := alphabet[rng.Intn(len(alphabet))]
				name = fmt.Sprintf("type %q", r)
				d.TypeRune(r)
			case 4:
				s := randomText(rng, rng.Intn(12))
				name = fmt.Sprintf("paste %q", s)
				d.InsertText(s)
			case 5, 6:
				r := randomRecord(rng)
				name = "chip " + r.RecordBase().ContextID
				d.InsertChip(r, randomText(rng, rng.Intn(5)))
			case 7:
				r := randomRecord(rng)
				name = "append " + r.RecordBase().ContextID
				d.AppendChip(r, "")
			case 8:
				name = "backspace"
				d.DeleteBackward()
			case 9:
				name = "delete"
				d.DeleteForward()
			case 10:
				name = "delete word back/fwd"
				if rng.Intn(2) == 0 {
					d.DeleteWordBackward()
				} else {
					d.DeleteWordForward()
				}
			case 11:
				name = "kill line start/end"
				if rng.Intn(2) == 0 {
					d.DeleteToLineStart()
				} else {
					d.DeleteToLineEnd()
				}
			case 12:
				name = fmt.Sprintf("left/right %v", ext)
				if rng.Intn(2) == 0 {
					d.MoveLeft(ext)
				} else {
					d.MoveRight(ext)
				}
			case 13:
				name = "word motion"
				if rng.Intn(2) == 0 {
					d.MoveWordLeft(ext)
				} else {
					d.MoveWordRight(ext)
				}
			case 14:
				name = "line motion"
				d.MoveLine(rng.Intn(5)-2, ext)
			case 15:
				name = "visual motion"
				d.MoveVisual(rng.Intn(5)-2, 1+rng.Intn(12), w, ext)
			case 16:
				name = "home/end/doc"
				switch rng.Intn(4) {
				case 0:
					d.MoveLineStart(ext)
				case 1:
					d.MoveLineEnd(ext)
				case 2:
					d.MoveDocStart(ext)
				default:
					d.MoveDocEnd(ext)
				}
			case 17:
				name = "select all"
				d.SelectAll()
			case 18, 19:
				name = "undo"
				d.Undo()
			case 20:
				name = "redo"
				d.Redo()
			case 21:
				name = "remove shelf image"
				if sh := d.Shelf(); len(sh) > 0 {
					_ = d.RemoveShelfImage(sh[rng.Intn(len(sh))], rng.Intn(2) == 0)
				}
			case 22:
				r := randomRecord(rng)
				md := "x " + contextref.LinkFor(r) + " " + randomText(rng, 3)
				name = "paste markdown " + md
				d.InsertMarkdown(md, []contextref.Record{r})
			case 23:
				name = "set caret"
				d.SetCaret(Pos{rng.Intn(4), rng.Intn(20)}, ext)
			}
			trace = append(trace, name)
			checkInvariants(t, d, fmt.Sprintf("seed %d step %d (%s)", seed, step, strings.Join(trace[max(0, len(trace)-5):], "; ")))
		}
		// Undo all the way, then redo all the way: the same draft again.
		for d.Redo() {
			checkInvariants(t, d, fmt.Sprintf("seed %d redo", seed))
		}
		final := d.Markdown()
		for d.Undo() {
			checkInvariants(t, d, fmt.Sprintf("seed %d undo", seed))
		}
		if d.Markdown() != "" {
			t.Fatalf("seed %d: undoing everything leaves %q", seed, d.Markdown())
		}
		for d.Redo() {
		}
		if d.Markdown() != final {
			t.Fatalf("seed %d: redoing everything gives %q, want %q", seed, d.Markdown(), final)
		}
	}
}

// TestIsBlankIsNothingToSend: IsBlank agrees with "the Markdown is blanks
// and the shelf is empty", the rule send uses, for blanks, words, chips,
// invisible characters and a shelf image alone.
func TestIsBlankIsNothingToSend(t *testing.T) {
	cases := []struct {
		name string
		make func(d *Draft)
		want bool
	}{
		{"empty", func(*Draft) {}, true},
		{"blanks and newlines", func(d *Draft) { typeString(d, "  \t"); d.TypeRune('\n'); typeString(d, " ") }, true},
		{"a word", func(d *Draft) { typeString(d, "  hi ") }, false},
		{"a zero-width space", func(d *Draft) { d.TypeRune('\u200b') }, false},
		{"a chip", func(d *Draft) { d.InsertChip(mentionRec("m", "a.go"), "") }, false},
		{"an image on the shelf only", func(d *Draft) { d.InsertChip(imageRec("img"), ""); d.DeleteBackward() }, false},
	}
	for _, c := range cases {
		d := NewDraft()
		c.make(d)
		rule := strings.TrimSpace(d.Markdown()) == "" && len(d.Shelf()) == 0
		if got := d.IsBlank(); got != c.want || got != rule {
			t.Errorf("%s: IsBlank %v, want %v (Markdown rule says %v)", c.name, got, c.want, rule)
		}
	}
}

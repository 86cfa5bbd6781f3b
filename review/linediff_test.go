package review

import (
	"strings"
	"testing"
)

// lcsLen is the length of a longest common subsequence, by dynamic
// programming: the reference the Myers diff must match.
func lcsLen(a, b []int) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			switch {
			case a[i-1] == b[j-1]:
				cur[j] = prev[j-1] + 1
			case prev[j] >= cur[j-1]:
				cur[j] = prev[j]
			default:
				cur[j] = cur[j-1]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// checkScript checks that the marks describe a valid and shortest edit
// script from a to b.
func checkScript(t *testing.T, a, b []int) {
	t.Helper()
	modA, modB := diffInts(a, b)
	var keptA, keptB []int
	for i, m := range modA {
		if !m {
			keptA = append(keptA, a[i])
		}
	}
	for j, m := range modB {
		if !m {
			keptB = append(keptB, b[j])
		}
	}
	if len(keptA) != len(keptB) {
		t.Fatalf("kept %v and %v differ (a=%v b=%v)", keptA, keptB, a, b)
	}
	for i := range keptA {
		if keptA[i] != keptB[i] {
			t.Fatalf("kept %v and %v differ (a=%v b=%v)", keptA, keptB, a, b)
		}
	}
	if l := lcsLen(a, b); l != len(keptA) {
		t.Fatalf("kept %d, the longest common subsequence is %d (a=%v b=%v)", len(keptA), l, a, b)
	}
}

func TestDiffIntsShortest(t *testing.T) {
	for _, c := range [][2][]int{
		{{}, {}}, {{1}, {}}, {{}, {1}}, {{1, 2, 3}, {1, 2, 3}},
		{{1, 2, 3, 4}, {1, 3, 4, 5}}, {{1, 2, 1, 2, 1}, {2, 1, 2, 1, 2}},
		{{1, 1, 1, 2}, {2, 1, 1, 1}}, {{1, 2, 3}, {4, 5, 6}}, {{0, 1, 0, 1, 0, 1}, {1, 1, 1, 0}},
	} {
		checkScript(t, c[0], c[1])
	}
}

func FuzzDiffInts(f *testing.F) {
	f.Add([]byte("abcabba"), []byte("cbabac"))
	f.Add([]byte(""), []byte("x"))
	f.Add([]byte("aaaaaaaaaab"), []byte("baaaaaaaaaa"))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		if len(x) > 300 || len(y) > 300 {
			return
		}
		a, b := make([]int, len(x)), make([]int, len(y))
		for i, c := range x {
			a[i] = int(c % 4) // a small alphabet makes many matches
		}
		for i, c := range y {
			b[i] = int(c % 4)
		}
		checkScript(t, a, b)
	})
}

func TestDiffText(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n"
	new := "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nL\nm\n"
	f := DiffText("x.txt", &old, new, 3)
	if len(f.Hunks) != 2 {
		t.Fatalf("%d hunks:\n%s", len(f.Hunks), FormatUnified([]*File{f}))
	}
	if h := f.Hunks[0].Header(); h != "@@ -1,5 +1,5 @@" {
		t.Fatalf("first hunk %s", h)
	}
	if h := f.Hunks[1].Header(); h != "@@ -9,5 +9,5 @@" {
		t.Fatalf("second hunk %s", h)
	}
	// Closer changes share a hunk.
	new2 := "a\nB\nc\nd\ne\nf\ng\nH\ni\nj\nk\nl\nm\n"
	if f := DiffText("x.txt", &old, new2, 3); len(f.Hunks) != 1 || f.Hunks[0].Header() != "@@ -1,11 +1,11 @@" {
		t.Fatalf("%s", FormatUnified([]*File{f}))
	}
	// A new file, and a last line that loses its newline.
	if f := DiffText("n.txt", nil, "x\ny", 3); f.Status != Added || f.Hunks[0].Header() != "@@ -0,0 +1,2 @@" || !f.Hunks[0].Lines[1].NoNewline {
		t.Fatalf("%s", FormatUnified([]*File{f}))
	}
	o := "x\ny\n"
	f = DiffText("n.txt", &o, "x\ny", 3)
	got := FormatUnified([]*File{f})
	want := "diff --git a/n.txt b/n.txt\n--- a/n.txt\n+++ b/n.txt\n@@ -1,2 +1,2 @@\n x\n-y\n+y\n\\ No newline at end of file\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// Git's patch tool reads what we write: the same text comes out.
	if _, err := ParseUnified([]byte(got)); err != nil {
		t.Fatal(err)
	}
	bin := "a\x00b"
	if f := DiffText("b.bin", &bin, "c", 3); !f.Binary {
		t.Fatal("binary")
	}
}

// TestDiffTextMatchesGit compares the hunks with git's own diff of the
// same texts.
func TestDiffTextMatchesGit(t *testing.T) {
	var ob, nb strings.Builder
	for i := 0; i < 200; i++ {
		line := "line " + strings.Repeat("x", i%7) + "\n"
		ob.WriteString(line)
		switch {
		case i%37 == 5:
			nb.WriteString("changed " + line)
		case i%53 == 7:
		default:
			nb.WriteString(line)
		}
		if i%61 == 3 {
			nb.WriteString("inserted\n")
		}
	}
	old, new := ob.String(), nb.String()
	dir := gitRepo(t, map[string]string{"f.txt": old})
	writeFile(t, dir, "f.txt", new)
	out := git(t, dir, "diff", "--no-color", "-U3", "--diff-algorithm=myers", "--", "f.txt")
	theirs, err := ParseUnified([]byte(out + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	ours := DiffText("f.txt", &old, new, 3)
	var th, oh []string
	for _, h := range theirs[0].Hunks {
		h.Section = "" // git's function-name heading
		th = append(th, h.Header())
	}
	for _, h := range ours.Hunks {
		oh = append(oh, h.Header())
	}
	if strings.Join(th, " ") != strings.Join(oh, " ") {
		t.Fatalf("git: %v\nours: %v", th, oh)
	}
	theirs[0].Status, theirs[0].OldMode, theirs[0].NewMode = Modified, "", ""
	if a, b := FormatUnified(theirs), FormatUnified([]*File{ours}); a != b {
		t.Fatalf("git:\n%s\nours:\n%s", a, b)
	}
}

func BenchmarkDiffTextUnrelated(b *testing.B) {
	var ob, nb strings.Builder
	for i := 0; i < 20000; i++ {
		ob.WriteString("old line " + strings.Repeat("a", i%13) + "\n")
		nb.WriteString("new line " + strings.Repeat("b", i%11) + "\n")
	}
	old, new := ob.String(), nb.String()
	for b.Loop() {
		DiffText("x", &old, new, 3)
	}
}

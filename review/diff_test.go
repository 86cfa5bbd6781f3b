package review

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

const gitSample = `diff --git a/main.go b/main.go
index 1111111..2222222 100644
--- a/main.go
+++ b/main.go
@@ -1,4 +1,5 @@ package main
 package main
-var a = 1
+var a = 2
+var b = 3
 
 func f() {}
@@ -10,2 +11,2 @@ func g() {
-	x()
+	y()
 }
diff --git a/old name.txt b/new name.txt
similarity index 90%
rename from old name.txt
rename to new name.txt
index 3333333..4444444 100644
--- a/old name.txt
+++ b/new name.txt
@@ -1 +1 @@
-one
\ No newline at end of file
+one
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
index 5555555..0000000
--- a/gone.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-a
-b
diff --git a/img.png b/img.png
new file mode 100644
index 0000000..6666666
Binary files /dev/null and b/img.png differ
diff --git a/run.sh b/run.sh
old mode 100644
new mode 100755
diff --git "a/tab\there.txt" "b/tab\there.txt"
new file mode 100644
index 0000000..e69de29
diff --git a/moved.txt b/elsewhere/moved.txt
similarity index 100%
rename from moved.txt
rename to elsewhere/moved.txt
`

func TestParseGitDiff(t *testing.T) {
	files, err := ParseUnified([]byte(gitSample))
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		old, new string
		status   FileStatus
		hunks    int
		binary   bool
	}
	wants := []want{
		{"main.go", "main.go", Modified, 2, false},
		{"old name.txt", "new name.txt", Renamed, 1, false},
		{"gone.txt", "", Deleted, 1, false},
		{"", "img.png", Added, 0, true},
		{"run.sh", "run.sh", Modified, 0, false},
		{"", "tab\there.txt", Added, 0, false},
		{"moved.txt", "elsewhere/moved.txt", Renamed, 0, false},
	}
	if len(files) != len(wants) {
		t.Fatalf("%d files", len(files))
	}
	for i, w := range wants {
		f := files[i]
		if f.OldPath != w.old || f.NewPath != w.new || f.Status != w.status || len(f.Hunks) != w.hunks || f.Binary != w.binary {
			t.Errorf("file %d: %+v, want %+v", i, f, w)
		}
	}
	h := files[0].Hunks[0]
	if h.Section != "package main" || h.OldStart != 1 || h.NewLines != 5 {
		t.Fatalf("hunk %+v", h)
	}
	got := []string{}
	for _, l := range h.Lines {
		got = append(got, string(l.Kind)+strconv.Itoa(l.Old)+"/"+strconv.Itoa(l.New)+":"+l.Text)
	}
	if strings.Join(got, "|") != " 1/1:package main|-2/0:var a = 1|+0/2:var a = 2|+0/3:var b = 3| 3/4:| 4/5:func f() {}" {
		t.Fatalf("lines %s", strings.Join(got, "|"))
	}
	if h2 := files[0].Hunks[1]; h2.Lines[0].Old != 10 || h2.Lines[1].New != 11 || h2.Lines[2].Old != 11 {
		t.Fatalf("second hunk %+v", h2.Lines)
	}
	r := files[1].Hunks[0]
	if !r.Lines[0].NoNewline || r.Lines[1].NoNewline {
		t.Fatalf("no-newline marker %+v", r.Lines)
	}
	if files[4].OldMode != "100644" || files[4].NewMode != "100755" {
		t.Fatalf("modes %+v", files[4])
	}
	if files[1].Similarity != 90 {
		t.Fatal("similarity")
	}
	// Writing and reading again gives the same files.
	again, err := ParseUnified([]byte(FormatUnified(files)))
	if err != nil {
		t.Fatal(err)
	}
	if FormatUnified(again) != FormatUnified(files) {
		t.Fatalf("round trip:\n%s\n---\n%s", FormatUnified(files), FormatUnified(again))
	}
}

func TestParsePlainDiff(t *testing.T) {
	in := "some preamble\n--- a/x.txt\t2024-01-01\n+++ b/x.txt\t2024-01-02\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
	files, err := ParseUnified([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Path() != "x.txt" || len(files[0].Hunks[0].Lines) != 3 {
		t.Fatalf("%+v", files)
	}
	// An empty line stands for an empty context line.
	files, err = ParseUnified([]byte("--- a/y\n+++ b/y\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n"))
	if err != nil || files[0].Hunks[0].Lines[1].Kind != LineContext {
		t.Fatalf("%v %+v", err, files)
	}
}

func TestParseMalformed(t *testing.T) {
	for _, in := range []string{
		"--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n",                   // ends early
		"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n-b\n+c\n",               // too many deleted lines
		"--- a/x\n+++ b/x\n@@ -1 +1 @@\n?a\n",                       // bad prefix
		"--- a/x\n+++ b/x\n@@ -x +1 @@\n a\n",                       // bad header
		"--- a/x\n+++ b/x\n@@ -5 +5 @@\n a\n@@ -1 +1 @@\n a\n",      // backwards
		"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n\\ x\n", // marker first
		"--- /dev/null\n+++ /dev/null\n@@ -0,0 +1 @@\n+a\n",
	} {
		if _, err := ParseUnified([]byte(in)); !errors.Is(err, ErrMalformed) {
			t.Errorf("%q: %v", in, err)
		}
	}
}

func TestUnquoteC(t *testing.T) {
	for in, want := range map[string]string{
		`"a\tb"`:          "a\tb",
		`"caf\303\251"`:   "café",
		`"q\"x\\y"`:       `q"x\y`,
		`"new\nline.txt"`: "new\nline.txt",
	} {
		got, n, ok := unquoteC(in)
		if !ok || got != want || n != len(in) {
			t.Errorf("%s: %q %d %v", in, got, n, ok)
		}
		if q := quoteC(want); q != want {
			if back, _, _ := unquoteC(q); back != want {
				t.Errorf("quote %q → %q", want, q)
			}
		} else if strings.ContainsAny(want, "\t\n\"\\") {
			t.Errorf("quote %q → %q", want, quoteC(want))
		}
	}
	for _, bad := range []string{`"abc`, `"\q"`, `"\4000"`, `"\1"`} {
		if _, _, ok := unquoteC(bad); ok {
			t.Errorf("%s accepted", bad)
		}
	}
}

func FuzzParseUnified(f *testing.F) {
	f.Add([]byte(gitSample))
	f.Add([]byte("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n"))
	f.Add([]byte("diff --git \"a/q\\\"\" \"b/q\\\"\"\nBinary files a/q and b/q differ\n"))
	f.Add([]byte("--- a/x\r\n+++ b/x\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		files, err := ParseUnified(data)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error that is not ErrMalformed: %v", err)
			}
			return
		}
		for _, fl := range files {
			if fl.Path() == "" {
				t.Fatal("file without a name")
			}
			for _, h := range fl.Hunks {
				checkHunk(t, h)
			}
		}
		// Formatting is a fixed point after one round.
		once := FormatUnified(files)
		again, err := ParseUnified([]byte(once))
		if err != nil {
			t.Fatalf("formatted diff does not parse: %v\n%q", err, once)
		}
		if twice := FormatUnified(again); twice != once {
			t.Fatalf("not a fixed point:\n%q\n%q", once, twice)
		}
		// The pane's rows can be built and every row drawn.
		if len(data) < 4096 {
			m := NewFromDiff(Options{NoPullRequest: true, Theme: &Theme{}}, &Diff{Files: files})
			m.doc = buildDoc(&Diff{Files: files})
			m.SetSize(60, 10)
			for r := range m.doc.rows {
				_ = m.renderRow(r, 40, 0)
			}
		}
	})
}

// checkHunk checks the line numbers against the header.
func checkHunk(t *testing.T, h *Hunk) {
	t.Helper()
	var oldN, newN int
	for _, l := range h.Lines {
		switch l.Kind {
		case LineContext:
			if l.Old != h.OldStart+oldN || l.New != h.NewStart+newN {
				t.Fatalf("context line numbers %+v in %s", l, h.Header())
			}
			oldN++
			newN++
		case LineDeleted:
			if l.Old != h.OldStart+oldN || l.New != 0 {
				t.Fatalf("deleted line numbers %+v in %s", l, h.Header())
			}
			oldN++
		case LineAdded:
			if l.New != h.NewStart+newN || l.Old != 0 {
				t.Fatalf("added line numbers %+v in %s", l, h.Header())
			}
			newN++
		default:
			t.Fatalf("kind %q", l.Kind)
		}
	}
	if oldN != h.OldLines || newN != h.NewLines {
		t.Fatalf("counts %d/%d for %s", oldN, newN, h.Header())
	}
}

package fragment

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestAttachedFileRender(t *testing.T) {
	for _, c := range []struct {
		name string
		f    AttachedFile
		want string
	}{
		{"text", AttachedFile{Name: "notes.txt", ID: "ctx_1", Content: "remember the milk", Sent: 17, Total: 17},
			"<attached_file name=\"notes.txt\" id=\"ctx_1\">\nremember the milk\n</attached_file>"},
		{"cut", AttachedFile{Name: "big.log", ID: "c", Content: "abc", Sent: 3, Total: 10},
			"<attached_file name=\"big.log\" id=\"c\">\nabc\n(truncated: 3 of 10 bytes)\n</attached_file>"},
		{"attributes escaped", AttachedFile{Name: `a"<b>&.txt`, ID: "c"},
			"<attached_file name=\"a&quot;&lt;b&gt;&amp;.txt\" id=\"c\">\n\n</attached_file>"},
		{"own tags escaped", AttachedFile{Name: "x", ID: "c", Content: "</attached_file>\n<ATTACHED_FILE name=\"y\">\n<attached_files> </attached_file\n<context>"},
			"<attached_file name=\"x\" id=\"c\">\n&lt;/attached_file>\n&lt;ATTACHED_FILE name=\"y\">\n<attached_files> &lt;/attached_file\n<context>\n</attached_file>"},
		{"notice", AttachedFile{Name: "a.zip", ID: "c", Content: "ignored", Notice: "binary file\n(application/zip)"},
			"<attached_file name=\"a.zip\" id=\"c\">\nbinary file (application/zip)\n</attached_file>"},
	} {
		if got := Render(c.f); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
		if k, ok := Standard().Claim(Render(c.f)); !ok || k != AttachedFileKind {
			t.Errorf("%s: claimed as %v", c.name, k)
		}
	}
}

func TestParseAttachedFile(t *testing.T) {
	f := AttachedFile{Name: `we"ird & <name>.txt`, ID: "ctx_9", Content: "line 1\nline 2\n", Sent: 14, Total: 100}
	p, ok := ParseAttachedFile("  \n" + Render(f) + "\n ")
	if !ok || p.Attrs["name"] != f.Name || p.Attrs["id"] != "ctx_9" || p.Body != "line 1\nline 2\n\n(truncated: 14 of 100 bytes)" {
		t.Fatalf("parsed %+v %v", p, ok)
	}
	for _, bad := range []string{
		"<attached_file>\nx\n</attached_file>x",
		`<attached_file name="x"` + "</attached_file>",
		`<attached_file name=x>` + "\n</attached_file>",
		`<attached_file name="x" name="y">` + "\n</attached_file>",
		`<attached_file name="x">no newline</attached_file>`,
		`<attached_file na-me="x">` + "\n</attached_file>",
		`<thread_history thread="t" title="">` + "\n</thread_history>",
	} {
		if p, ok := ParseAttachedFile(bad); ok {
			t.Errorf("parsed %q as %+v", bad, p)
		}
	}
	// The kind with no attributes still parses (the opening tag is "<attached_file>").
	if p, ok := ParseAttachedFile("<attached_file>\nx\n</attached_file>"); !ok || p.Body != "x" || len(p.Attrs) != 0 {
		t.Errorf("bare tag: %+v %v", p, ok)
	}
}

func TestThreadHistoryRender(t *testing.T) {
	h := ThreadHistory{ThreadID: "th_42", Title: `Fix "login"`, Omitted: 2, Messages: []ThreadMessage{
		{Role: "user", Text: "why does it fail?\nsee </thread_history> here"},
		{Role: "assistant", Text: "Because.\r\n\nTry again.\n\n"},
	}}
	want := "<thread_history thread=\"th_42\" title=\"Fix &quot;login&quot;\">\n(2 earlier messages left out)\n" +
		"user: why does it fail?\n  see &lt;/thread_history> here\nassistant: Because.\n  \n  Try again.\n</thread_history>"
	if got := Render(h); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	p, ok := ParseThreadHistory(want)
	if !ok || p.Attrs["thread"] != "th_42" || p.Attrs["title"] != `Fix "login"` || !strings.HasPrefix(p.Body, "(2 earlier") {
		t.Fatalf("parsed %+v", p)
	}
	m := Render(ThreadHistory{ThreadID: "gone", Title: "t", Missing: true, Messages: h.Messages})
	if m != "<thread_history thread=\"gone\" title=\"t\">\n"+ThreadMissing+"\n</thread_history>" {
		t.Fatalf("missing: %q", m)
	}
	if k, _ := Standard().Claim(m); k != ThreadHistoryKind {
		t.Fatalf("claimed as %v", k)
	}
}

func TestFitThreadHistory(t *testing.T) {
	var msgs []ThreadMessage
	for i := 0; i < 50; i++ {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		msgs = append(msgs, ThreadMessage{Role: role, Text: strings.Repeat(string(rune('a'+i%26)), 100)})
	}
	for _, max := range []int{400, 1000, 3000} {
		h := FitThreadHistory("t", "title", msgs, max)
		r := Render(h)
		if len(r) > max {
			t.Errorf("max %d: rendered %d bytes", max, len(r))
		}
		if h.Omitted+len(h.Messages) != len(msgs) || len(h.Messages) == 0 {
			t.Errorf("max %d: omitted %d kept %d", max, h.Omitted, len(h.Messages))
		}
		// The newest are kept, in order.
		if last := h.Messages[len(h.Messages)-1]; last != msgs[len(msgs)-1] {
			t.Errorf("max %d: last kept %q", max, last.Text[:5])
		}
		if !strings.Contains(r, "earlier messages left out") {
			t.Errorf("max %d: no omitted line", max)
		}
		// One message more would not have fit.
		more := ThreadHistory{ThreadID: "t", Title: "title", Messages: msgs[h.Omitted-1:], Omitted: h.Omitted - 1}
		if len(Render(more)) <= max-len("(50 earlier messages left out)\n") {
			t.Errorf("max %d: kept %d messages, %d would fit", max, len(h.Messages), len(more.Messages))
		}
	}
	// Everything fits: nothing omitted.
	if h := FitThreadHistory("t", "", msgs[:3], 1<<20); h.Omitted != 0 || len(h.Messages) != 3 {
		t.Fatalf("roomy: %+v", h)
	}
	// The newest alone is too long: its start is kept, cut on a rune boundary.
	long := []ThreadMessage{{Role: "user", Text: "old"}, {Role: "assistant", Text: strings.Repeat("é", 1000)}}
	h := FitThreadHistory("t", "", long, 300)
	r := Render(h)
	if len(r) > 300 || len(h.Messages) != 1 || h.Omitted != 1 || !strings.HasSuffix(h.Messages[0].Text, " … (cut)") || !utf8.ValidString(r) {
		t.Fatalf("cut newest: %d bytes %+v", len(r), h)
	}
	if len(r) < 250 {
		t.Fatalf("cut newest wastes room: %d bytes", len(r))
	}
	// Not even the tags fit: all left out.
	if h := FitThreadHistory("t", "", long, 10); len(h.Messages) != 0 || h.Omitted != 2 {
		t.Fatalf("tiny: %+v", h)
	}
	if h := FitThreadHistory("t", "", long, 0); len(h.Messages) != 2 {
		t.Fatalf("unbounded: %+v", h)
	}
}

func TestEscapeTag(t *testing.T) {
	for in, want := range map[string]string{
		"":                                 "",
		"no tags":                          "no tags",
		"<x>":                              "<x>",
		"<thread_history":                  "&lt;thread_history",
		"a</Thread_History>b":              "a&lt;/Thread_History>b",
		"<thread_history_x>":               "<thread_history_x>",
		"<thread_history2":                 "<thread_history2",
		"<thread_history-x":                "&lt;thread_history-x",
		"<</thread_history <":              "<&lt;/thread_history <",
		"<//thread_history":                "<//thread_history",
		"<thread_histor":                   "<thread_histor",
		"<thread_history\n<thread_history": "&lt;thread_history\n&lt;thread_history",
	} {
		if got := EscapeTag(in, "thread_history"); got != want {
			t.Errorf("EscapeTag(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAttachmentsOmitted(t *testing.T) {
	got := Render(AttachmentsOmitted{Names: []string{"shot.png", "a<b>\n.txt"}, Reason: "not resent: over the history budget"})
	if got != "<attachments_omitted>shot.png, a&lt;b&gt; .txt: not resent: over the history budget</attachments_omitted>" {
		t.Fatal(got)
	}
	if k, _ := Standard().Claim(got); k != AttachmentsOmittedKind {
		t.Fatal(k)
	}
}

// Fork keeps the payload fragments of the user's messages.
func TestForkKeepsPayload(t *testing.T) {
	r := Standard()
	file := Render(AttachedFile{Name: "a.txt", ID: "c", Content: "x"})
	th := Render(ThreadHistory{ThreadID: "t", Missing: true})
	h := []Message{{Role: RoleUser, Parts: []string{"see [File: a.txt; ref=c]", file, th, Render(EnvironmentContext{Cwd: "/old"})}}}
	got, err := r.Fork(h, nil)
	if err != nil || len(got) != 1 || len(got[0].Parts) != 3 || got[0].Parts[1] != file || got[0].Parts[2] != th {
		t.Fatalf("Fork = %+v %v", got, err)
	}
	if w := r.UserWords(h); len(w) != 1 || len(w[0].Parts) != 1 {
		t.Fatalf("UserWords keeps payload: %+v", w)
	}
}

package main

import (
	"os"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/internal/acpagents"
)

// readmeSection is README.md's section under heading (up to the next "## ").
func readmeSection(t *testing.T, heading string) string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("README has no %q", heading)
	}
	s = s[i+len(heading)+2:]
	if j := strings.Index(s, "\n## "); j >= 0 {
		s = s[:j]
	}
	return s
}

// README gets a new user installed (issue 25 item 19): the quick start
// keeps its two commands, and the Install section right after it says
// `go install .`, starting in your own project, and for each ACP agent
// chipchat is tested against (internal/acpagents) the npm packages and the
// exact --agent command line.
func TestREADMEInstall(t *testing.T) {
	if qs := readmeSection(t, "## Quick start"); !strings.Contains(qs, "```sh\ngo run .\ngo test ./...\n```") {
		t.Errorf("the quick start's two commands changed:\n%s", qs)
	}
	b, _ := os.ReadFile("README.md")
	s := string(b)
	if q, i := strings.Index(s, "\n## Quick start\n"), strings.Index(s, "\n## Install\n"); i < q || strings.Contains(s[q+1:i], "\n## ") {
		t.Error("Install is not the section right after the quick start")
	}
	inst := readmeSection(t, "## Install")
	for _, want := range []string{"go install .", "cd ~/src/myproject\nchipchat"} {
		if !strings.Contains(inst, want) {
			t.Errorf("Install lacks %q", want)
		}
	}
	for _, a := range acpagents.Agents {
		cmd := strings.Join(a.Argv, " ")
		if len(a.Argv) > 1 {
			cmd = "'" + cmd + "'"
		}
		if want := "chipchat --agent acp:" + cmd; !strings.Contains(inst, want) {
			t.Errorf("%s: Install lacks %q", a.Name, want)
		}
		for _, pkg := range strings.Fields(a.Package) {
			if at := strings.LastIndexByte(pkg, '@'); at > 0 {
				pkg = pkg[:at] // the pinned version is CI's
			}
			if !strings.Contains(inst, pkg) {
				t.Errorf("%s: Install does not say to install %s", a.Name, pkg)
			}
		}
	}
}

// README's codec section says what the ops do with <, > and &, and its
// examples are the ops' output (issue 25 item 20); the files it points a
// clone at exist in a clone.
func TestREADMECodecEscapesAndReferences(t *testing.T) {
	codecSec := readmeSection(t, "## chipchat codec")
	runOp := func(op, in string) string {
		var out, errb strings.Builder
		if code := run([]string{"codec", op}, strings.NewReader(in), &out, &errb); code != 0 {
			t.Fatalf("codec %s: exit %d: %s", op, code, errb.String())
		}
		return out.String()
	}
	dec := runOp("decode", `{"version":1,"records":[{"version":1,"contextId":"ctx_s","kind":"skill","label":"<a&b>","name":"x"}]}`)
	if !strings.Contains(dec, `"label":"<a&b>"`) || !strings.Contains(codecSec, `{"label":"<a&b>"}`) {
		t.Errorf("decode writes %q; README's example of unescaped JSON must match", dec)
	}
	html := runOp("fragment-html", `{"text":"a<b>&c","fragment":{"version":1,"source":{"environmentId":"env_1"},"records":[]}}`)
	if !strings.Contains(html, ">a&lt;b&gt;&amp;c<") || !strings.Contains(codecSec, "`a&lt;b&gt;&amp;c`") {
		t.Errorf("fragment-html writes %q; README must say it escapes the text as HTML", html)
	}
	proj := runOp("project", `{"text":"[T](t3-context://v1/terminal/ctx_t)","records":[{"version":1,"contextId":"ctx_t","kind":"terminal","label":"T","terminalId":"t","terminalLabel":"T","lineStart":1,"lineEnd":1,"text":"a<b>&c </t3_context>"}]}`)
	if !strings.Contains(proj, "1 | a<b>&c &lt;/t3_context>") || !strings.Contains(codecSec, "written `&lt;`") {
		t.Errorf("project writes %q; README must say only a < before t3_context or context is escaped", proj)
	}
	layout := readmeSection(t, "## Layout")
	if strings.Contains(layout, "beside this repository") {
		t.Error("README points at a design file beside the repository, which a clone does not have")
	}
	if _, err := os.Stat("contextref/testdata/vectors.json"); err != nil || !strings.Contains(layout, "contextref/testdata/vectors.json") {
		t.Errorf("README's Layout names the conformance vectors: %v", err)
	}
}

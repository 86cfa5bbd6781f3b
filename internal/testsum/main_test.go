package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

const sample = `{"Action":"start","Package":"p/a"}
{"Action":"run","Package":"p/a","Test":"TestOK"}
{"Action":"output","Package":"p/a","Test":"TestOK","Output":"=== RUN   TestOK\n"}
{"Action":"pass","Package":"p/a","Test":"TestOK"}
{"Action":"run","Package":"p/a","Test":"TestBad"}
{"Action":"output","Package":"p/a","Test":"TestBad","Output":"    a_test.go:9: the diff was not on the prompt\n"}
{"Action":"run","Package":"p/a","Test":"TestBad/sub"}
{"Action":"output","Package":"p/a","Test":"TestBad/sub","Output":"    a_test.go:12: the subtest's own failure\n"}
{"Action":"fail","Package":"p/a","Test":"TestBad/sub"}
{"Action":"fail","Package":"p/a","Test":"TestBad"}
{"Action":"run","Package":"p/a","Test":"TestHelper"}
{"Action":"output","Package":"p/a","Test":"TestHelper","Output":"    a_test.go:3: helper process\n"}
{"Action":"output","Package":"p/a","Test":"TestHelper","Output":"--- SKIP: TestHelper (0.00s)\n"}
{"Action":"skip","Package":"p/a","Test":"TestHelper"}
{"Action":"run","Package":"p/a","Test":"TestNeedsTmux"}
{"Action":"output","Package":"p/a","Test":"TestNeedsTmux","Output":"    e_test.go:3: skipped: tmux is not installed\n"}
{"Action":"skip","Package":"p/a","Test":"TestNeedsTmux"}
{"Action":"output","Package":"p/a","Output":"FAIL\tp/a\t0.1s\n"}
{"Action":"fail","Package":"p/a"}
go: some message that is not JSON
{"Action":"output","Package":"p/b","Output":"panic: boom\n"}
{"Action":"fail","Package":"p/b"}
`

func TestSummarize(t *testing.T) {
	var log bytes.Buffer
	s := summarize(strings.NewReader(sample), &log, regexp.MustCompile(`^(?:TestHelper)$`))
	if s.passed != 1 || s.failed != 2 || s.skipped != 2 {
		t.Fatalf("counts %d/%d/%d, want 1 passed, 2 failed, 2 skipped", s.passed, s.failed, s.skipped)
	}
	if strings.Join(s.failedTop, ";") != "p/a TestBad" {
		t.Fatalf("failed top-level tests %q", s.failedTop)
	}
	if tail := s.tails["p/a TestBad"]; !strings.Contains(tail, "the diff was not on the prompt") {
		t.Fatalf("the failure's tail %q lacks its message", tail)
	}
	if tail := s.tails["p/a TestBad"]; !strings.Contains(tail, "the subtest's own failure") {
		t.Fatalf("the failure's tail %q lacks its failed subtest's message", tail)
	}
	if strings.Join(s.badPackages, ";") != "p/b" {
		t.Fatalf("packages failed outside a test %q (p/a failed through its tests)", s.badPackages)
	}
	if len(s.unexpected) != 1 || !strings.Contains(s.unexpected[0], "TestNeedsTmux: e_test.go:3: skipped: tmux is not installed") {
		t.Fatalf("unexpected skips %q", s.unexpected)
	}
	for _, want := range []string{"the diff was not on the prompt", "FAIL\tp/a", "go: some message that is not JSON", "panic: boom"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
	if strings.Contains(log.String(), "=== RUN   TestOK") {
		t.Errorf("a passing test's output is in the log:\n%s", log.String())
	}
	var tail bytes.Buffer
	if code := report(&tail, s); code != 1 {
		t.Fatalf("exit code %d, want 1", code)
	}
	if !strings.HasSuffix(tail.String(), "tests: 1 passed, 2 failed, 2 skipped\n") {
		t.Fatalf("closing line:\n%s", tail.String())
	}
}

func TestAllPassedExitsZero(t *testing.T) {
	in := `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Output":"ok  \tp\t0.1s\n"}
{"Action":"pass","Package":"p"}
`
	var log bytes.Buffer
	s := summarize(strings.NewReader(in), &log, nil)
	if code := report(&log, s); code != 0 || !strings.Contains(log.String(), "ok  \tp") {
		t.Fatalf("exit %d, log:\n%s", code, log.String())
	}
}

// FuzzSummarize: any input is read to the end without panicking, and the
// counts agree with the lists.
func FuzzSummarize(f *testing.F) {
	f.Add(sample)
	f.Add("{\"Action\":\"fail\",\"Package\":\"x\",\"Test\":\"T/\"}\n{")
	f.Fuzz(func(t *testing.T, in string) {
		var log bytes.Buffer
		s := summarize(strings.NewReader(in), &log, nil)
		if len(s.failedTop) > s.failed || len(s.unexpected) != s.skipped || len(s.skips) != s.skipped {
			t.Fatalf("counts disagree: %+v", s)
		}
	})
}

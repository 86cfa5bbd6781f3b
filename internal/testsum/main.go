package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// summary is what one run of go test said.
type summary struct {
	passed, failed, skipped int
	// failedTop lists "package TestName" of failed top-level tests.
	failedTop []string
	// tails holds the last lines of each failed top-level test's output.
	tails map[string]string
	// badPackages lists packages that failed with no failed test (build
	// errors, panics outside a test, timeouts).
	badPackages []string
	// skips lists "package TestName: reason".
	skips []string
	// unexpected lists the skips -allow-skip does not match.
	unexpected []string
}

type key struct{ pkg, test string }

// summarize reads events from r, writes the log to w and returns the
// summary. A line that is not JSON (go's own messages) is copied as is.
func summarize(r io.Reader, w io.Writer, allowSkip *regexp.Regexp) summary {
	var s summary
	out := map[key]*strings.Builder{}
	pkgFailedTests := map[string]int{}
	subTails := map[key]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintf(w, "%s\n", line)
			continue
		}
		k := key{e.Package, e.Test}
		switch e.Action {
		case "build-output":
			fmt.Fprint(w, e.Output)
		case "output":
			if e.Test == "" {
				// Package lines: ok/FAIL, PASS, panics outside tests.
				if !strings.HasPrefix(e.Output, "=== ") && !strings.HasPrefix(e.Output, "--- ") {
					fmt.Fprint(w, e.Output)
				}
				continue
			}
			b := out[k]
			if b == nil {
				b = &strings.Builder{}
				out[k] = b
			}
			b.WriteString(e.Output)
		case "pass":
			if e.Test != "" {
				s.passed++
				delete(out, k)
			}
		case "skip":
			if e.Test == "" {
				continue // a package with no test files
			}
			s.skipped++
			entry := e.Package + " " + e.Test + ": " + skipReason(out[k])
			s.skips = append(s.skips, entry)
			if allowSkip == nil || !allowSkip.MatchString(e.Test) {
				s.unexpected = append(s.unexpected, entry)
			}
			delete(out, k)
		case "fail":
			if e.Test == "" {
				if pkgFailedTests[e.Package] == 0 {
					s.badPackages = append(s.badPackages, e.Package)
				}
				continue
			}
			s.failed++
			pkgFailedTests[e.Package]++
			if top, _, ok := strings.Cut(e.Test, "/"); ok {
				// A failed subtest's last lines belong to its top-level test's tail.
				subTails[key{e.Package, top}] += lastLines(out[k], 15)
			} else {
				s.failedTop = append(s.failedTop, e.Package+" "+e.Test)
				if s.tails == nil {
					s.tails = map[string]string{}
				}
				s.tails[e.Package+" "+e.Test] = subTails[k] + lastLines(out[k], 5)
			}
			if b := out[k]; b != nil {
				fmt.Fprintf(w, "--- output of %s %s\n%s", e.Package, e.Test, b.String())
			}
			delete(out, k)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(w, "testsum: reading go test's output: %v\n", err)
		s.badPackages = append(s.badPackages, "(input)")
	}
	sort.Strings(s.skips)
	sort.Strings(s.unexpected)
	return s
}

// lastLines is the last n lines of b.
func lastLines(b *strings.Builder, n int) string {
	if b == nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n") + "\n"
}

// skipReason is the last line of a skipped test's output that says why
// (t.Skip's message), or "(no reason given)".
func skipReason(b *strings.Builder) string {
	if b == nil {
		return "(no reason given)"
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "--- SKIP") || strings.HasPrefix(l, "=== ") {
			continue
		}
		return l
	}
	return "(no reason given)"
}

// report writes the closing lines and returns the exit code.
func report(w io.Writer, s summary) int {
	for _, sk := range s.skips {
		fmt.Fprintf(w, "skipped: %s\n", sk)
	}
	code := 0
	for _, p := range s.badPackages {
		fmt.Fprintf(w, "testsum: package %s failed outside any test (build error, panic or timeout)\n", p)
		code = 1
	}
	for _, u := range s.unexpected {
		fmt.Fprintf(w, "testsum: a test skipped that may not skip here: %s\n", u)
		code = 1
	}
	if s.failed > 0 {
		code = 1
	}
	fmt.Fprintf(w, "tests: %d passed, %d failed, %d skipped\n", s.passed, s.failed, s.skipped)
	return code
}

func main() {
	allow := flag.String("allow-skip", "", "a regular expression of test names that may skip (the whole name, subtests included)")
	failedFile := flag.String("failed", "", "write the failed top-level tests here, one \"package TestName\" a line")
	tailsFile := flag.String("tails", "", "write the last lines of each failed top-level test's output here")
	flag.Parse()
	var re *regexp.Regexp
	if *allow != "" {
		var err error
		if re, err = regexp.Compile("^(?:" + *allow + ")$"); err != nil {
			fmt.Fprintf(os.Stderr, "testsum: -allow-skip: %v\n", err)
			os.Exit(2)
		}
	}
	s := summarize(os.Stdin, os.Stdout, re)
	if *failedFile != "" {
		data := strings.Join(s.failedTop, "\n")
		if data != "" {
			data += "\n"
		}
		if err := os.WriteFile(*failedFile, []byte(data), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "testsum: %v\n", err)
			os.Exit(2)
		}
	}
	if *tailsFile != "" {
		var b strings.Builder
		for _, name := range s.failedTop {
			fmt.Fprintf(&b, "--- %s (last lines)\n%s", name, s.tails[name])
		}
		if err := os.WriteFile(*tailsFile, []byte(b.String()), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "testsum: %v\n", err)
			os.Exit(2)
		}
	}
	os.Exit(report(os.Stdout, s))
}

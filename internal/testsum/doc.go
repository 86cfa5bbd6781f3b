// Command testsum reads `go test -json` on standard input and writes what a
// person reading a CI log needs: each package's closing line, the whole
// output of every failed test, one line per skipped test with its reason,
// and a closing "tests: N passed, N failed, N skipped" line. It exits 1
// when a test or a package failed, or when a test skipped whose name the
// -allow-skip pattern does not match; 0 otherwise.
//
// With -failed FILE it writes the failed top-level tests, one "package
// TestName" a line, so .ci/run can retry exactly those it may retry; with
// -tails FILE, the last lines of each one's output, for the line that
// announces the retry.
//
// .ci/run runs it (go build ./internal/testsum); it is not part of
// chipchat. It imports nothing of the project.
package main

// Package testenv says what a test needs from the machine and decides what
// happens when it is missing: outside CI the test is skipped with a line
// naming what to install; in CI (the CI environment variable set, as
// .ci/run does) it fails, so a green CI never hides a test that did not
// run.
//
// It is imported by tests only and imports nothing of the project.
package testenv

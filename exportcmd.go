package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/chipchat/chipchat/export"
	"github.com/chipchat/chipchat/store"
	"github.com/chipchat/chipchat/workspace"
)

const exportUsage = `Usage: chipchat export [--thread ID | --last] [--format md|json] [--data-dir DIR] [--force] [PATH]

Writes a thread of the current directory's project: Markdown (each message
with its role and time, chips as links, an appendix of what the agent read,
tool calls folded with their diffs and output) or versioned JSON (the thread,
its messages with their contexts and reply items). Without --thread it is the
most recent thread (--last). PATH "-" writes to standard output; without PATH
the file is $XDG_DATA_HOME/chipchat/exports/<title>-<date>.<md|json>, and its
path is printed. An existing file is never overwritten without --force.
`

// runExport is `chipchat export`.
func runExport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("chipchat export", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	threadID := fs.String("thread", "", "")
	last := fs.Bool("last", false, "")
	format := fs.String("format", "md", "")
	dataDir := fs.String("data-dir", "", "")
	force := fs.Bool("force", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, exportUsage)
			return 0
		}
		fmt.Fprintf(stderr, "chipchat export: %s (run \"chipchat export --help\" for usage)\n", flagError(err, args))
		return 2
	}
	bad := func(msg string) int {
		fmt.Fprintf(stderr, "chipchat export: %s (run \"chipchat export --help\" for usage)\n", msg)
		return 2
	}
	switch {
	case *format != "md" && *format != "json":
		return bad(fmt.Sprintf("--format %s: allowed are md and json", quoteArg(*format)))
	case *last && *threadID != "":
		return bad("--thread and --last exclude each other")
	case fs.NArg() > 1:
		return bad(fmt.Sprintf("unexpected argument %s", quoteArg(fs.Arg(1))))
	}
	path, err := exportThread(*dataDir, *threadID, *format, fs.Arg(0), *force, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "chipchat export: %s\n", oneLine(err.Error()))
		return 1
	}
	if path != "" {
		fmt.Fprintln(stdout, path)
	}
	return 0
}

// exportThread writes the thread and returns the file's path ("": stdout).
func exportThread(dataDir, threadID, format, path string, force bool, stdout io.Writer) (string, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	if dataDir == "" {
		if dataDir, err = store.DefaultDir(); err != nil {
			return "", err
		}
	}
	st, err := store.Open(dataDir)
	if err != nil {
		return "", err
	}
	defer st.Close()
	ws, err := workspace.Open(workspace.Options{Store: st, Dir: store.ProjectKey(cwd),
		Messages: func(st *store.Store, id string) ([]store.Message, error) { return st.MessagesRaw(id) }})
	if err != nil {
		return "", err
	}
	o, err := ws.Start(threadID, false)()
	if err != nil {
		return "", err
	}
	if len(o.Messages) == 0 {
		return "", fmt.Errorf("no thread to export in %s for %s", dataDir, cwd)
	}
	var data []byte
	if format == "json" {
		if data, err = export.JSON(o); err != nil {
			return "", err
		}
	} else {
		data = []byte(export.Markdown(o, time.Local))
	}
	if path == "-" {
		_, err := stdout.Write(data)
		return "", err
	}
	if path == "" {
		dir, err := export.Dir(os.Getenv)
		if err != nil {
			return "", err
		}
		path = filepath.Join(dir, export.FileName(o.Thread.Title, time.Now(), format))
	}
	if err := export.Write(path, data, force); err != nil {
		if errors.Is(err, export.ErrExists) {
			return "", fmt.Errorf("%s exists (--force replaces it)", path)
		}
		return "", err
	}
	return path, nil
}

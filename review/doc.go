// Package review is the diff review pane (DESIGN.md section 11, issue 17):
// it shows a diff — git's (the working tree against HEAD, the index, or
// the working tree against a branch or commit) or one agent edit — lets
// the user select lines and write comments, and hands the parent a
// review-comment record per comment.
//
// It owns:
//
//   - the diff model: ParseUnified / FormatUnified (git's extended unified
//     diff: renames, copies, mode changes, new and deleted files, binary
//     files, "\ No newline at end of file", C-quoted names), Git.Load,
//     which runs the git command (never a library; here, or elsewhere
//     through Git.Exec: a remote project's) with its output shape
//     pinned, adds untracked files as new files for working-tree
//     comparisons, and compares a branch from its merge base with HEAD as a
//     pull request would; DiffText, a Myers line diff in Go (linear-space
//     bisection, a work budget past which a region becomes "replace all")
//     for agent edits and untracked files;
//   - pull-request metadata: PullRequest runs `gh pr view --json …` with a
//     3 s timeout; any failure is "no metadata", never an error;
//   - the pane, Model (Bubble Tea v2): file list on the left, hunks on the
//     right, old and new line numbers, chroma syntax colour, word-level
//     changes on paired -/+ lines, keys from a rebindable KeyMap;
//   - the record: a confirmed comment becomes a
//     *contextref.ReviewCommentRecord, made in one function (newRecord)
//     and checked against the contract's schema; Stale and MarkStale
//     compare a record's new-side lines with the file at send time.
//
// Reading is I/O and happens in commands only: Init returns the commands
// that load the diff and ask gh; a confirmed comment's command asks git
// for HEAD (sourceRevision is the commit at the time of the comment) and
// mints the context id. Update and View do no I/O. The rows of a diff
// (file headers, hunk headers, lines) are laid out once in the load
// command; View draws only the rows on screen, each row is cached per
// width and decoration (the file list's rows too); chroma lexes each file
// once, in a command (the cursor's file first), and until its tokens come
// the file is drawn plain; word diffs are computed per line pair on first
// sight.
// A scroll step on a 20,000-line diff is thousands of times cheaper than
// drawing it whole (BenchmarkReviewScroll vs BenchmarkReviewWholeRender,
// checked by TestScrollStepCheap). Everything drawn that came from outside
// (file names, lines, gh's title, errors) goes through chips.SanitizeLine;
// tabs are expanded first (chips.ExpandTabs).
//
// It must not import store, agent, chat or ui (nor anything that does);
// its project imports are contextref, chips and internal/safegit, and
// internal/vtscreen and internal/safegit/safegittest in tests. It talks to its parent only through messages: CommentMsg (one
// per comment; several comments can be written in one pass) and
// ClosedMsg. Its own command results are unexported; Owns(msg) tells the
// parent which messages to route to Update.
// The parent may also call CommentOn, once the diff is loaded, to open the
// editor on lines chosen elsewhere (the app: a selection the user made on
// an agent's diff item in the transcript).
//
// Decisions where the design is silent:
//
//   - A selection stays inside one hunk (motions clamp at its edges): a
//     record names one section, and its diff is that hunk's lines.
//   - startIndex/endIndex are the min and max new-side numbers of the
//     selected lines that have one; only when every selected line is
//     deleted, the old-side numbers.
//   - The record's diff starts with a hunk header for the excerpt
//     ("@@ -3,7 +3,7 @@"), then the selected lines with their prefixes and
//     up to 3 lines of the hunk on each side (any kind), and "\ No newline"
//     markers. The header tells Stale where the new-side lines must be;
//     without one (a record from elsewhere), any placement covering
//     startIndex will do. A record whose diff has no new-side line is never
//     stale; one whose file is gone is.
//   - sectionId is "diff-" + 16 hex digits of SHA-256 over the comparison,
//     the file path and the hunk header: the same for every comment on
//     that hunk, until the hunk changes.
//   - The label is "<basename> <rangeLabel>", shortened from the left of
//     the name to stay within 200 units.
//   - Against a branch: the merge base of the ref and HEAD (a pull
//     request's view), falling back to the ref itself when there is none.
//   - A repository without commits compares with the empty tree.
//   - Untracked files (not ignored) appear for working-tree comparisons,
//     up to 500 files of at most 1 MiB each; bigger ones show a note.
//
// Selection state machine (esc closes the innermost thing):
//
//	state      key           next state   effect
//	browsing   j/k ] [ } {   browsing     the cursor moves
//	browsing   v             selecting    anchor = cursor (diff lines only)
//	browsing   c             editing      comment on the cursor's line
//	browsing   r             browsing     the diff is read again; the cursor keeps its file and line; marks go
//	browsing   esc           (closed)     ClosedMsg
//	selecting  motion        selecting    the cursor moves, clamped to the anchor's hunk
//	selecting  v, esc        browsing     the selection is dropped
//	selecting  c             editing      comment on anchor..cursor
//	editing    text keys     editing      the comment's text
//	editing    ctrl+j, shift+enter  editing  a line break
//	editing    enter         browsing     blank: stays, says so; else CommentMsg, the lines get a ● mark
//	editing    esc           selecting or browsing  the comment is dropped; the selection it was opened on comes back
//
// A diff read again (r) while the editor is open waits until it closes, so
// a comment never lands on rows that moved under it.
//
// # Git runs no repository-configured program
//
// A repository's .git/config, .gitattributes and .git/info/attributes can
// name programs, and git runs some of them for commands as innocent as
// `git diff`. Every git command chipchat runs — this package's diff,
// rev-parse, merge-base and ls-files (sourceRevision is rev-parse HEAD),
// the `@` file list's rev-parse and ls-files (composer/files.go) — is
// built by internal/safegit.Command, and gh (PullRequest), which runs git
// itself, gets internal/safegit.Environ. Settings reach git as
// command-scope config (GIT_CONFIG_COUNT/KEY/VALUE: above every config
// file and inherited by the git processes git and gh start). What runs a
// program, per git-config(1), githooks(5) and gitattributes(5) of git
// 2.39, and what chipchat sets:
//
//	core.fsmonitor                  false (diff, ls-files, status ran it on every index read)
//	hooks (core.hooksPath, .git/hooks: post-index-change, reference-transaction, pre-auto-gc, …)
//	                                core.hooksPath=/dev/null
//	filter.<driver>.clean/smudge/process (named by .gitattributes; diff runs clean on the work tree)
//	                                every driver the config defines (git config --get-regexp,
//	                                asked first): clean=, smudge=, process= empty, required=false
//	diff.external, GIT_EXTERNAL_DIFF, diff.<driver>.command
//	                                --no-ext-diff on diff/show/log/diff-*; diff.external= and each
//	                                driver's command= empty (a git without the flag fails, runs nothing);
//	                                GIT_EXTERNAL_DIFF dropped from the environment
//	diff.<driver>.textconv          --no-textconv on the same; each driver's textconv= empty
//	merge.<driver>.driver           empty (merges only)
//	core.pager, pager.<cmd>, color.pager, PAGER, GIT_PAGER
//	                                --no-pager, core.pager=cat, pager.{diff,show,log,ls-files,config}=false,
//	                                GIT_PAGER=cat, PAGER=cat
//	core.editor, sequence.editor    ":" (git's "no editor")
//	core.sshCommand, core.gitProxy, core.askPass, credential.helper, remote.<name>.uploadpack/vcs,
//	ext:: and other transports, promisor-remote lazy fetches
//	                                empty; credential.helper= (the list reset); protocol.allow=never;
//	                                GIT_NO_LAZY_FETCH=1; GIT_TERMINAL_PROMPT=0
//	gpg.program, gpg.ssh.program, gpg.x509.program, gpg.ssh.defaultKeyCommand, log.showSignature
//	                                log.showSignature=false, the programs "false" or empty
//	core.alternateRefsCommand, uploadpack.packObjectsHook
//	                                empty (fetch/push and serving only)
//	gc.auto, maintenance.auto (git gc --auto, its pre-auto-gc hook)
//	                                gc.auto=0, maintenance.auto=false
//	submodules (diff runs `git status` inside a dirty submodule, with the submodule's own config)
//	                                diff.ignoreSubmodules=dirty, diff.submodule=short,
//	                                status.submoduleSummary=false, submodule.recurse=false
//	an embedded bare repository found by discovery (its config)
//	                                safe.bareRepository=explicit
//	system config and attributes    GIT_CONFIG_NOSYSTEM=1, GIT_ATTR_NOSYSTEM=1
//	GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT of our environment (settings after ours)
//	                                dropped; so are GIT_DIR and the variables that choose another
//	                                repository than the directory's
//
// Not programs, left as they are: include.path and includeIf (files
// read), core.excludesFile and attributes without a driver, and the user's
// own environment (GIT_SSH_COMMAND, GIT_ASKPASS: chipchat's user set them).
// trace2.* targets are read from system and global config only. The cost:
// a diff of a Git LFS file (a filter) shows the work tree's bytes against
// the pointer, and textconv'd files show their raw text. The test
// (TestNoRepositoryProgramRuns here, in composer and in internal/safegit)
// arms a repository with a marker-writing program for each of these,
// shows plain git runs them, and that chipchat's commands run none.
package review

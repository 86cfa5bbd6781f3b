// Package store is chipchat's SQLite persistence: the environment (one data
// directory, identified by a random environment id made once), projects,
// threads, messages with their structured context (DESIGN.md 3.2), drafts
// (canonical Markdown, records and caret, per thread), the prompt stash, the
// prompt history per project (history.go) and the bindings of local
// attachment ids to stored assets. A thread made by NewThread is written
// only with its first message, draft or agent session (threads.go).
//
// It owns the file <data dir>/chipchat.db and the folder <data dir>/leases
// (one lock file per reply being written), nothing else in that directory. It imports contextref for the wire types and must not import
// ui, composer, transcript, agent or chips: the app converts between its
// editor and transcript models and the plain values here.
//
// Decisions this package makes (DESIGN.md is silent on them):
//
//   - Driver modernc.org/sqlite (pure Go). Every connection runs
//     busy_timeout=5000, foreign_keys=ON, journal_mode=WAL and
//     synchronous=NORMAL, and every transaction starts as BEGIN IMMEDIATE,
//     so a writer takes the write lock up front and never fails halfway on a
//     lock upgrade. Writes of one Store are serialized in Go; while a write
//     waits for another process, its busy timeout is cut to 50 ms and the
//     store polls again every few milliseconds (jittered) for up to 10 s
//     more, which keeps two busy processes fair to each other. A lock that
//     outlasts that surfaces as ErrBusy ("busy in another chipchat
//     process"), never as SQLite's "database is locked".
//   - A user message is written with synchronous=FULL for its transaction:
//     DESIGN.md 8 says the user's message is on disk before it is sent, and
//     in WAL mode NORMAL only survives a process crash, not a power loss.
//     Everything else (streaming replies, drafts) uses NORMAL.
//   - The schema is versioned with PRAGMA user_version and migrated inside
//     one BEGIN IMMEDIATE transaction. PRAGMA application_id marks the file
//     as chipchat's.
//   - Before anything writes, an existing file is probed read-only: its
//     header must be SQLite's, its application id chipchat's (or unset on an
//     empty database), its schema version one this build knows (else
//     *SchemaError) and PRAGMA quick_check must pass (else an error wrapping
//     ErrDamaged). Such a file is never modified, overwritten or moved. A
//     newer schema is read from the file's header (user_version) before
//     SQLite opens it, when no write-ahead log holds a newer one, so a
//     refused file does not even get -wal and -shm files beside it.
//   - testdata/schemaN holds a database written by schema N's own code
//     (schema3, schema6), opened and checked with the current code by
//     TestMigrateSchema3Database and TestSchema6Fixture. Every schema
//     change adds its own and keeps the older ones opening.
//   - Times are stored as Unix nanoseconds. Thread order ties are broken by
//     insertion order, newest first.
//   - A thread's title, while empty, is derived from the first user message
//     that gives a non-empty one: its first non-blank line, reference links
//     shown as their labels, trimmed and cut to 80 characters.
//   - Messages of a thread that does not exist (or no longer does) load as
//     an empty list, so a thread deleted by another process reads as empty.
//   - A stored context or record that no longer decodes is dropped on load
//     (Context nil, text kept; a bad draft or stash record is left out); a
//     load never fails because of one.
//   - Messages decodes every context; MessagesRaw hands each out as stored
//     (RawContext) and decodes none, for a caller that decodes only what it
//     shows: decoding was 95% of opening a long thread. Both fill
//     RawContext, so a caller may decode again or compare. The app opens
//     threads raw and the transcript decodes a context on first use, with
//     the same rule (one that does not decode is no context).
//   - Replies are ordered items (schema 4, package message): reply_items
//     holds each item's kind and fields by position, reply_text the text
//     of growing items as appended chunks (WriteReply), so a 50 MB reply
//     costs linear I/O and a crash keeps what was written. Migration 4
//     turned every older reply into one text item.
//   - A streaming reply's writer holds a Lease: an flock on
//     leases/<reply id>.lock, dropped by the kernel when the process dies.
//     RecoverThread interrupts only streaming replies whose lease nobody
//     holds, so a second chipchat (or a read-only reader) never interrupts
//     a live turn. Without file locks (non-unix) a lease file counts as
//     held while it exists.
//   - A message typed while a turn runs is a user message with status
//     queued; Dequeue sends it (status done, moved to the end of the
//     thread so its reply follows it) and Unqueue deletes it.
//   - The database file is created with mode 0600 and the directory 0700:
//     chat history is private.
package store

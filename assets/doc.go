// Package assets stores attachment bytes, content-addressed by SHA-256,
// under a directory of the data dir (usually <datadir>/assets).
//
// It owns: writing bytes safely (streamed to a temp file in the store while
// hashing, fsynced, renamed into place, the directory synced), the size limit
// (DefaultLimit, 20 MiB, or the one given to Open) with a clear *TooLargeError,
// detecting a file's name and MIME type when it is attached (PutFile), and
// resolving an asset id to its path (Path, Has). Later: asset URLs and
// fetching an asset from another environment.
//
// An asset id is "sha256-" followed by 64 lowercase hex digits, which is also
// a valid contextref attachment/context id. The bytes live at
// <dir>/<first two hex digits>/<64 hex digits>, written once and never
// changed, so equal bytes are stored once and concurrent writers of the
// same bytes are harmless (the rename is atomic and the content identical).
// Ids are validated strictly before they touch the file system.
//
// Decisions: the MIME type is taken from a small built-in table first
// (images and source files that system tables get wrong, such as .ts), then
// mime.TypeByExtension, then http.DetectContentType on the first 512 bytes; it
// is always reduced to the bare lowercase media type ("text/plain", never
// "text/plain; charset=utf-8") and falls back to application/octet-stream.
// Temp files are named ".tmp-*" in the store's root; Open removes those older
// than a day (left by a crash), never fresher ones another process may be
// writing.
//
// This package imports nothing of the project; ui/composer/transcript/store
// call it, not the other way round.
package assets

// Package keymap is chipchat's one key table: every key the app answers
// to, with its config name, the scopes it acts in, its default keys and
// its help (keys.go); the key structs built from it (AppKeys, OverlayKeys
// and the composer's, transcript's and review pane's maps); the [keys]
// table's rebinding and its checks — key names a terminal can send, clashes
// within a scope, no bare printable key where text is typed (apply.go,
// check.go); F1's and --help's lists and the hint bar's phrases (Hint,
// Join, Fit). Adding a key is one row here plus its field.
//
// It imports the components whose key maps it fills (composer,
// transcript, review) and nothing of the app: never ui, chat, workspace or
// a store.
package keymap

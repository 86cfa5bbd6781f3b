package clipboard

import (
	"fmt"
	"unicode/utf8"

	"github.com/chipchat/chipchat/contextref"
)

// Note is the line a copy ends with: what was copied (what: "the
// selection", "the message"), its length and chips, and the carriers'
// errors; failed says nothing took it (no cache, no system tool).
func (r WriteResult) Note(what, text string, chips int) (note string, failed bool) {
	note = fmt.Sprintf("copied %s (%d characters", what, utf8.RuneCountInString(text))
	if chips > 0 {
		note += fmt.Sprintf(", %d chip(s)", chips)
	}
	note += ")"
	err := r.Err()
	if err != nil {
		note += " · " + err.Error()
	}
	return note, err != nil && !r.Cached && r.System == ""
}

// Importer is Import over this environment's assets (env, local) and the
// environments reg knows, for text pasted into a draft holding held: f as
// pasted, or nil for records of this environment's own (a history or stash
// entry). It does I/O: run it off the UI goroutine.
func Importer(env string, reg *Registry, local LocalAssets, held []contextref.Record) func(text string, f *contextref.Fragment, own ...contextref.Record) ImportResult {
	return func(text string, f *contextref.Fragment, own ...contextref.Record) ImportResult {
		if f == nil {
			f = &contextref.Fragment{Source: contextref.FragmentSource{EnvironmentID: env}, Records: own}
		}
		return Import(text, f, held, env, reg.Lookup, local)
	}
}

// Package paste owns chipchat's terminal input filter: it takes bracketed
// pastes off the byte stream before Bubble Tea parses them, passing small
// ones on as tea.PasteMsg and streaming large ones (over a threshold) to a
// store function, so a 100 MB paste never sits in memory whole (issue 14).
// Where a paste was, the stream carries a short APC marker that Bubble Tea
// decodes in order among the keys, and Filter.Translate (tea.WithFilter)
// turns it back into the paste's message.
//
// It imports Bubble Tea and ultraviolet only: never the store, the asset
// store or the ui (the caller's Store function does the storing).
package paste

package workspace

import "github.com/chipchat/chipchat/store"

// PlainText reports whether a stored reply may be plain text (drawn with
// its lines kept, transcript.Message.PlainText): as the backend that wrote
// it recorded (store.Message.TextMode), else — a reply from before that was
// recorded — as the running backend says (current).
func PlainText(mode string, current bool) bool {
	switch mode {
	case store.TextPlain:
		return true
	case store.TextMarkdown:
		return false
	}
	return current
}

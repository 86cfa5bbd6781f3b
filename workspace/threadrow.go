package workspace

// Row is the thread's row in the thread list: the title ("(new thread)"
// when it has none yet) after "● " for the open thread, and the detail —
// the id, the time of the last change, " · open" for the open one.
// Control characters are the drawing's to strip.
func (t Thread) Row(open bool) (title, detail string) {
	title, mark := t.Title, "  "
	if title == "" {
		title = "(new thread)"
	}
	detail = t.ID
	if !t.Updated.IsZero() {
		detail += " · " + t.Updated.Format("2006-01-02 15:04")
	}
	if open {
		mark, detail = "● ", detail+" · open"
	}
	return mark + title, detail
}

package agent

import (
	"strings"
	"unicode"
)

// SessionTitle is the title the agent gave the thread's session (ACP's
// session_info_update): one line, without control characters.
type SessionTitle struct{ Title string }

func (SessionTitle) isEvent() {}

// acpTitle is a session title from the agent as one line of text, "" for
// none.
func acpTitle(p *string) string {
	if p == nil {
		return ""
	}
	return strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, *p)), " ")
}

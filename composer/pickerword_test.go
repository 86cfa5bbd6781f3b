package composer

import (
	"slices"
	"testing"
)

// Issue 25 item 8: a whole word ranks above a word's prefix, which ranks
// above scattered letters, in every picker (the history search and @ use
// the same Picker); within a tier the fuzzy score still decides.
func TestPickerRanksWholeWordsAndPrefixesFirst(t *testing.T) {
	for _, c := range []struct {
		query string
		items []string
		want  []string // the first rows, in order
	}{
		{"notes", []string{
			"Hello, can you explain what this project does?",
			"write the release notesheet",
			"add the meeting notes to the wiki",
		}, []string{"add the meeting notes to the wiki", "write the release notesheet", "Hello, can you explain what this project does?"}},
		{"view", []string{"ui/overview.go", "ui/v_i_e_w.go", "transcript/view.go", "ui/viewport_test.go"},
			[]string{"transcript/view.go", "ui/viewport_test.go", "ui/overview.go", "ui/v_i_e_w.go"}},
		{"Über", []string{"ÜberallÜber/x.go", "haus/über.go"}, []string{"haus/über.go", "ÜberallÜber/x.go"}},
	} {
		p := NewPicker("history")
		p.SetItems(pickerTestItems(c.items...))
		p.SetQuery(c.query)
		if got := pickerTestRows(p); !slices.Equal(got, c.want) {
			t.Errorf("query %q ranks\n  %q\nwant\n  %q", c.query, got, c.want)
		}
	}
}

func TestPickerWordTier(t *testing.T) {
	for _, c := range []struct {
		q, t string
		tier int
		at   int
	}{
		{"notes", "the notes.", tierWord, 4},
		{"NOTES", "my Notes", tierWord, 3},
		{"note", "the notes", tierPrefix, 4},
		{"otes", "the notes", tierInner, 5},
		{"nts", "the notes", tierScattered, -1},
		{"src/ma", "x/src/main.go", tierPrefix, 2},
		{"main", "cmd/domain/main_test.go", tierWord, 11},
		{"", "x", tierScattered, -1},
		{"ß", "straße ß", tierWord, -1},
	} {
		if tier, at := pickerWordTier(c.q, c.t); tier != c.tier || at != c.at {
			t.Errorf("pickerWordTier(%q, %q) = %d at %d, want %d at %d", c.q, c.t, tier, at, c.tier, c.at)
		}
	}
}

package config

import (
	"fmt"
	"slices"
	"strings"
)

// Themes are the values of [ui] theme: "dark" (the default), "light",
// "no-color" (as NO_COLOR) and "auto" (the terminal's background colour,
// asked at start, picks dark or light). Package theme draws them.
var Themes = []string{"auto", "dark", "light", "no-color"}

// DefaultTheme is the theme when [ui] theme is unset.
const DefaultTheme = "dark"

// ThemeName is [ui] theme, DefaultTheme when unset.
func (u UISettings) ThemeName() string {
	if u.Theme == "" {
		return DefaultTheme
	}
	return u.Theme
}

// checkTheme refuses a [ui] theme that is none of Themes.
func checkTheme(where, s string) error {
	if s == "" || slices.Contains(Themes, s) {
		return nil
	}
	return fmt.Errorf("%s: ui.theme = %q: allowed are %s", where, s, `"`+strings.Join(Themes, `", "`)+`"`)
}

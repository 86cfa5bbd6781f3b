// Package theme owns chipchat's built-in looks: for each name of [ui]
// theme (config.Themes) it gives the chip theme (chips), the composer's
// and every picker's styles (composer), the review pane's theme (review)
// and the transcript's options (transcript), so every surface draws in
// the same theme, and it resolves "auto" from the terminal's background
// colour. Contrast is WCAG's contrast ratio, which the themes' tests
// hold their colours to.
//
// It holds no colours of its own but ui's few (Status: ui imports theme,
// so they cannot be picked from ui): each package keeps its theme values
// (chips.LightTheme, composer.LightStyles, review.LightTheme,
// transcript.WithLight); theme only picks them.
// It must not import ui, config, store, agent or chat: ui imports it, and
// main resolves "auto" before the program starts.
package theme

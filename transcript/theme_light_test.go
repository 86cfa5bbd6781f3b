package transcript

import (
	"image/color"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/message"
)

// Under WithLight a search match is drawn on LightSearchHit's yellow, not
// reversed; the dark theme reverses it.
func TestLightSearchMatchOnYellow(t *testing.T) {
	for _, c := range []struct {
		name    string
		m       *Model
		on, off string
	}{
		{"light", New(chips.Default(chips.LightTheme()), WithLight()), lightHitOn, lightHitOff},
		{"dark", New(chips.Default(chips.DefaultTheme())), hitOn, hitOff},
	} {
		m := c.m
		m.SetSize(60, 12)
		m.SetMessages([]Message{userMsg("u1", "where is the needle?"), agentMsg("a1", "no idea")})
		m.Focus()
		search(t, m, "needle")
		v := m.View()
		if !strings.Contains(v, c.on+"needle"+c.off) {
			t.Fatalf("%s: the match is not drawn %q…%q:\n%q", c.name, c.on, c.off, v)
		}
		if c.name == "light" && strings.Contains(v, hitOn) {
			t.Fatalf("light: a match is reversed:\n%q", v)
		}
	}
	if lightHitOn != "\x1b[48;2;254;240;138m" || LightSearchHit != "#FEF08A" {
		t.Fatalf("lightHitOn %q is not LightSearchHit %s", lightHitOn, LightSearchHit)
	}
}

// ContentOptions draw a tool call's diff outside the transcript (the
// agent's question) in the transcript's theme: light green lines and
// chroma's github colours under WithLight, dark green and monokai else.
func TestContentOptionsFollowTheTheme(t *testing.T) {
	old := "def a():\n    return 1\n"
	tool := message.Tool{CallID: "c1", Kind: "edit", Title: "Edit app.py",
		Content: []message.ToolContent{{Type: message.ContentDiff, Path: "app.py", OldText: &old, NewText: "def a():\n    return 10\n"}}}
	light := strings.Join(RenderToolContent(tool, 60, New(chips.Default(chips.LightTheme()), WithLight()).ContentOptions()...), "\n")
	dark := strings.Join(RenderToolContent(tool, 60, New(chips.Default(chips.DefaultTheme())).ContentOptions()...), "\n")
	plain := strings.Join(RenderToolContent(tool, 60), "\n")
	if !strings.Contains(light, "\x1b[48;5;194m") || strings.Contains(light, "\x1b[48;5;22m") {
		t.Errorf("the light diff is not on light green:\n%q", light)
	}
	if !strings.Contains(dark, "\x1b[48;5;22m") || dark != plain {
		t.Errorf("the dark diff differs from RenderToolContent's default:\n%q\n%q", dark, plain)
	}
	noColor := strings.Join(RenderToolContent(tool, 60, New(chips.Default(chips.NoColorTheme()), WithNoColor()).ContentOptions()...), "\n")
	if strings.Contains(noColor, "\x1b[48;") || strings.Contains(noColor, "\x1b[38;2") {
		t.Errorf("the no-color diff has colour:\n%q", noColor)
	}
}

// The light theme's text colours reach 4.5:1 on white (the glyph, the
// focus gutters and the box borders are marks: 3:1, the border a faint
// frame); none is one of the dark theme's.
func TestLightLooksContrast(t *testing.T) {
	white := color.RGBA{0xff, 0xff, 0xff, 0xff}
	l, il, d, id := lightLooks(), lightItemLooks(), newLooks(false), newItemLooks(false)
	text := map[string][2]lipgloss.Style{
		"user": {l.user, d.user}, "agent": {l.agent, d.agent}, "status": {l.status, d.status}, "bad": {l.bad, d.bad}, "title": {l.title, d.title},
		"item title": {il.Title, id.Title}, "faint": {il.Faint, id.Faint}, "ok": {il.OK, id.OK}, "item bad": {il.Bad, id.Bad},
		"warn": {il.Warn, id.Warn}, "running": {il.Running, id.Running}, "add": {il.Add, id.Add}, "del": {il.Del, id.Del},
		"hunk": {il.Hunk, id.Hunk}, "line numbers": {il.LineNo, id.LineNo}, "path": {il.Path, id.Path},
	}
	for what, st := range text {
		fg := st[0].GetForeground()
		if r := chips.Contrast(fg, white); r < 4.5 {
			t.Errorf("light %s: contrast %.2f:1 < 4.5:1", what, r)
		}
		if fg == st[1].GetForeground() && what != "line numbers" { // 242: a grey both read
			t.Errorf("light %s is the dark theme's colour %v", what, fg)
		}
	}
	if r := chips.Contrast(il.Glyph.GetForeground(), white); r < 3 {
		t.Errorf("light glyph: contrast %.2f:1 < 3:1", r)
	}
}

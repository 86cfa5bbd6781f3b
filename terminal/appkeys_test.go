package terminal

import (
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func TestAppKeyZoomSideAndSplit(t *testing.T) {
	p := NewPane(t.TempDir())
	k := AppKeys{Leave: key.NewBinding(key.WithKeys("ctrl+t")), Hide: key.NewBinding(key.WithKeys("alt+h")),
		Zoom: key.NewBinding(key.WithKeys("alt+z")), Side: key.NewBinding(key.WithKeys("alt+s"))}
	press := func(code rune, mod tea.KeyMod) Action {
		_, act := p.AppKey(tea.KeyPressMsg{Code: code, Mod: mod}, k)
		return act
	}
	if trW, trH, pw, ph := p.Split(80, 20, false); trW != 80 || trH != 20 || pw != 0 || ph != 0 {
		t.Fatalf("hidden: %d×%d and %d×%d", trW, trH, pw, ph)
	}
	if trW, trH, pw, ph := p.Split(80, 20, true); trW != 80 || trH != 10 || pw != 80 || ph != 10 {
		t.Fatalf("below: %d×%d and %d×%d", trW, trH, pw, ph)
	}
	if act := press('z', tea.ModAlt); act != ActLayout || p.Layout != LayoutZoomed {
		t.Fatalf("zoom: %v, layout %v", act, p.Layout)
	}
	if trW, _, pw, ph := p.Split(80, 20, true); trW != 0 || pw != 80 || ph != 20 {
		t.Fatalf("zoomed: transcript %d wide, pane %d×%d", trW, pw, ph)
	}
	if act := press('s', tea.ModAlt); act != ActLayout || !p.Right || p.Layout != LayoutSplit {
		t.Fatalf("side: %v, right %v, layout %v", act, p.Right, p.Layout)
	}
	if trW, trH, pw, ph := p.Split(81, 20, true); trW != 40 || trH != 20 || pw != 40 || ph != 20 {
		t.Fatalf("beside: %d×%d and %d×%d", trW, trH, pw, ph)
	}
	if act := press('t', tea.ModCtrl); act != ActLeave {
		t.Fatalf("leave: %v", act)
	}
	if act := press('h', tea.ModAlt); act != ActHide {
		t.Fatalf("hide: %v", act)
	}
	if act := press('x', 0); act != ActNone {
		t.Fatalf("another key: %v", act)
	}
}

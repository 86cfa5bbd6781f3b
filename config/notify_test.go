package config

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/notify"
)

func TestNotifyConfig(t *testing.T) {
	d := Default().Notify.Settings()
	if !slices.Equal(d.On, notify.Events) || d.Method != notify.Auto || d.MinTurn != 10*time.Second {
		t.Errorf("default [notify] = %+v", d)
	}
	c, err := Load(writeConfig(t, "[notify]\non = [\"question\"]\nmethod = \"bell\"\nmin_turn_seconds = 30\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := c.Notify.Settings(); !slices.Equal(s.On, []notify.Event{notify.Question}) || s.Method != notify.Bell || s.MinTurn != 30*time.Second {
		t.Errorf("[notify] read as %+v", s)
	}
	c, err = Load(writeConfig(t, "[notify]\nmethod = \"off\"\n"), nil)
	if err != nil || !slices.Equal(c.Notify.Settings().On, notify.Events) {
		t.Errorf("a table setting only the method keeps the default events: %+v, %v", c.Notify, err)
	}
	for text, want := range map[string]string{
		"[notify]\non = [\"turn_done\"]\n":  `notify.on = "turn_done": allowed are "turn_end", "question", "error"`,
		"[notify]\nmethod = \"osc99\"\n":    `notify.method = "osc99": allowed are "auto", "osc9", "osc777", "bell", "off"`,
		"[notify]\nmin_turn_seconds = -1\n": "notify.min_turn_seconds = -1: allowed are 0 to 86400 seconds",
		"[notify]\nmin_turn_second = 5\n":   "unknown setting notify.min_turn_second",
	} {
		p := writeConfig(t, text)
		if _, err := Load(p, nil); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%q: %v, want %q naming the file", text, err, want)
		}
	}
}

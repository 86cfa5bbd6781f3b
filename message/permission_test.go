package message

import "testing"

func opts(kinds ...string) []PermissionOption {
	out := make([]PermissionOption, len(kinds))
	for i, k := range kinds {
		out[i] = PermissionOption{ID: "o" + string(rune('0'+i)), Kind: k}
	}
	return out
}

// The first highlighted option is allow once, else reject once, else the
// first that is not allow always: never a permanent rule.
func TestFirstOption(t *testing.T) {
	for _, tc := range []struct {
		kinds []string
		want  int
	}{
		{[]string{AllowAlways, RejectOnce, AllowOnce}, 2},
		{[]string{AllowAlways, RejectAlways, RejectOnce}, 2},
		{[]string{AllowAlways, RejectAlways}, 1},
		{[]string{AllowAlways}, 0},
		{nil, 0},
	} {
		if got := FirstOption(opts(tc.kinds...)); got != tc.want {
			t.Errorf("FirstOption(%q) = %d, want %d", tc.kinds, got, tc.want)
		}
	}
}

// Dismissing answers reject once, else reject always, else cancelled.
func TestRejectOption(t *testing.T) {
	if id, ok := RejectOption(opts(AllowOnce, RejectAlways, RejectOnce)); !ok || id != "o2" {
		t.Fatalf("got %q %v", id, ok)
	}
	if id, ok := RejectOption(opts(AllowOnce, RejectAlways)); !ok || id != "o1" {
		t.Fatalf("got %q %v", id, ok)
	}
	if _, ok := RejectOption(opts(AllowOnce, AllowAlways)); ok {
		t.Fatal("an option answered where cancelled is meant")
	}
}

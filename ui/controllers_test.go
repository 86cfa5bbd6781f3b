package ui

import (
	"github.com/chipchat/chipchat/dialog"
	"github.com/chipchat/chipchat/ui/overlay"
	"reflect"
	"testing"
)

// No type but the App holds a *App (issue 21 item 1): the controllers and
// the overlays reach the services they need, never the App (not even
// through a field of a field). A func field could hide one in a closure:
// the controllers and overlays have none that is built from the App.
func TestControllersHoldNoApp(t *testing.T) {
	app := reflect.TypeFor[*App]()
	var holds func(ty reflect.Type, seen map[reflect.Type]bool) bool
	holds = func(ty reflect.Type, seen map[reflect.Type]bool) bool {
		if ty == app {
			return true
		}
		if seen[ty] {
			return false
		}
		seen[ty] = true
		switch ty.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
			return holds(ty.Elem(), seen)
		case reflect.Map:
			return holds(ty.Key(), seen) || holds(ty.Elem(), seen)
		case reflect.Struct:
			for i := range ty.NumField() {
				if holds(ty.Field(i).Type, seen) {
					return true
				}
			}
		}
		return false
	}
	for _, ty := range []reflect.Type{reflect.TypeFor[panes](), reflect.TypeFor[shellMode](), reflect.TypeFor[reviewPane](),
		reflect.TypeFor[conversation](), reflect.TypeFor[drafts](), reflect.TypeFor[clip](), reflect.TypeFor[stash](),
		reflect.TypeFor[nav](), reflect.TypeFor[history](), reflect.TypeFor[overlay.Stack](), reflect.TypeFor[toastLine](),
		reflect.TypeFor[dialog.Help](), reflect.TypeFor[dialog.Attach](), reflect.TypeFor[dialog.Threads](), reflect.TypeFor[dialog.Confirm](),
		reflect.TypeFor[dialog.Stash](), reflect.TypeFor[dialog.HistorySearch](), reflect.TypeFor[dialog.Ask](), reflect.TypeFor[dialog.Modes](),
		reflect.TypeFor[dialog.Commands](), reflect.TypeFor[dialog.Quote]()} {
		if holds(ty, map[reflect.Type]bool{}) {
			t.Errorf("%v holds a *App", ty)
		}
	}
	// the check sees one
	type bad struct{ X []*struct{ A *App } }
	if !holds(reflect.TypeFor[bad](), map[reflect.Type]bool{}) {
		t.Fatal("the check missed a *App")
	}
}

package ui

import (
	"reflect"
	"testing"
)

// The terminal pane's, ! shell mode's and the review pane's controllers
// reach the services they need, never the App (not even through a field
// of a field).
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
	for _, ty := range []reflect.Type{reflect.TypeFor[panes](), reflect.TypeFor[shellMode](), reflect.TypeFor[reviewPane]()} {
		if holds(ty, map[reflect.Type]bool{}) {
			t.Errorf("%v holds a *App", ty)
		}
	}
	// the check sees one
	type bad struct{ x []*struct{ a *App } }
	if !holds(reflect.TypeFor[bad](), map[reflect.Type]bool{}) {
		t.Fatal("the check missed a *App")
	}
}

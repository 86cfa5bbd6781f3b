package chips

import (
	"fmt"
	"os"
	"testing"
)

func TestDemo(t *testing.T) {
	if os.Getenv("CHIPS_DEMO") == "" {
		t.Skip("set CHIPS_DEMO=1 to print the demo")
	}
	reg := Default(DefaultTheme())
	for _, c := range sampleChips() {
		for _, s := range Surfaces {
			fmt.Printf("--- %s %s\n%s\n", c.Kind, s, reg.Render(s, c, 60))
		}
	}
}

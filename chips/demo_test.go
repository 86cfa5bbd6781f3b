package chips

import (
	"fmt"
	"os"
	"testing"
)

func TestDemo(t *testing.T) {
	if os.Getenv("CHIPS_DEMO") == "" {
		t.Skip()
	}
	reg := Default(DefaultTheme())
	for _, c := range sampleChips() {
		for _, s := range Surfaces {
			fmt.Printf("--- %s %s\n%s\n", c.Kind, s, reg.Render(s, c, 60))
		}
	}
}

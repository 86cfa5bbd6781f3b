package transcript

import (
	"testing"

	"github.com/chipchat/chipchat/chips"
)

// BenchmarkRenderReplyFirst: one reply of the bench thread drawn the first
// time (its Markdown through glamour and chroma), another reply each op.
func BenchmarkRenderReplyFirst(b *testing.B) {
	m := New(chips.Default(chips.DefaultTheme()))
	m.SetSize(120, 40)
	cw := m.contentWidth()
	thread := benchThread(256)
	var srcs []string
	for i := 1; i < len(thread); i += 2 {
		srcs = append(srcs, thread[i].Text)
	}
	b.ReportAllocs()
	k := 0
	for b.Loop() {
		_ = m.markdown(srcs[k%len(srcs)], cw)
		k++
	}
}

// BenchmarkRenderPieces: the blocks a bench reply is made of, each drawn
// on its own at the content width of a 120-column transcript.
func BenchmarkRenderPieces(b *testing.B) {
	m := New(chips.Default(chips.DefaultTheme()))
	m.SetSize(120, 40)
	cw := m.contentWidth()
	for _, c := range []struct{ name, src string }{
		{"para", "Reply 17. The handler returns early when the **context** is cancelled, so the test sees `nil`."},
		{"plain", "That should fix it."},
		{"list", "- check the error path\n- add a test for the timeout\n- keep the public API"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = m.glamourLines(c.src, cw, cw)
			}
		})
	}
	b.Run("code", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = m.codeLines("func handle(ctx context.Context) error {\n    if err := ctx.Err(); err != nil {\n        return err\n    }\n    return nil\n}", "go", cw)
		}
	})
}

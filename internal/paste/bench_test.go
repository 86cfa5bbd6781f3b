package paste

import (
	"io"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// BenchmarkFilterLargePaste streams a 100 MB bracketed paste through the
// filter in the 4 KiB reads Bubble Tea makes, against the reference: the
// same bytes read from the same pipe with no filter. It reports the ratio.
func BenchmarkFilterLargePaste(b *testing.B) {
	const size = 100 << 20
	chunk := []byte(strings.Repeat("a pasted line of text, long enough to look real\n", 1<<10))
	write := func(w *os.File, bracket bool) {
		if bracket {
			w.Write(pasteStart)
		}
		for n := 0; n < size; n += len(chunk) {
			w.Write(chunk)
		}
		if bracket {
			w.Write(pasteEnd)
		}
		w.Close()
	}
	run := func(filter bool) time.Duration {
		r, w, _ := os.Pipe()
		defer r.Close()
		go write(w, filter)
		buf := make([]byte, 4096)
		start := time.Now()
		if !filter {
			for {
				if _, err := r.Read(buf); err != nil {
					break
				}
			}
			return time.Since(start)
		}
		done := make(chan struct{})
		f := NewFilter(r, Options{Store: func(r io.Reader) tea.Msg {
			io.Copy(io.Discard, r)
			close(done)
			return nil
		}})
		for {
			if _, err := f.Read(buf); err != nil {
				break
			}
		}
		<-done
		return time.Since(start)
	}
	var ref, got time.Duration
	for b.Loop() {
		ref += run(false)
		got += run(true)
	}
	b.SetBytes(size)
	b.ReportMetric(float64(got)/float64(ref), "x-plain-read")
	b.ReportMetric(float64(got.Milliseconds())/float64(b.N), "ms/paste")
}

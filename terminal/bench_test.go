package terminal

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/charmbracelet/x/vt"
)

const benchSize = 64 << 20

var (
	benchOnce sync.Once
	benchBuf  []byte
)

// benchData returns 64 MiB of `ls -l --color`-like lines (CRLF, as a pty
// with ONLCR delivers them), or the file named by $BENCH_PANE_FILE.
func benchData(tb testing.TB) []byte {
	benchOnce.Do(func() {
		if f := os.Getenv("BENCH_PANE_FILE"); f != "" {
			b, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			benchBuf = b
			return
		}
		benchBuf = genLsData(benchSize, "\r\n")
	})
	return benchBuf
}

func genLsData(size int, eol string) []byte {
	buf := make([]byte, 0, size+256)
	perms := []string{"-rw-r--r--", "drwxr-xr-x", "-rwxr-xr-x", "lrwxrwxrwx"}
	colors := []string{"\x1b[0m", "\x1b[01;34m", "\x1b[01;32m", "\x1b[01;36m"}
	months := []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	seed := uint32(12345)
	rnd := func() uint32 { seed = seed*1664525 + 1013904223; return seed >> 8 }
	for i := 0; len(buf) < size; i++ {
		k := int(rnd() % 4)
		line := fmt.Sprintf("%s %3d user staff %8d %s %2d %02d:%02d %s%s_%d.go\x1b[0m%s",
			perms[k], rnd()%20+1, rnd()%10000000, months[rnd()%12], rnd()%28+1, rnd()%24, rnd()%60,
			colors[k], "file_name_component", i, eol)
		buf = append(buf, line...)
	}
	return buf[:size]
}

// TestWriteBenchData writes the benchmark input (LF line ends, for cat in
// tmux) to $BENCH_PANE_OUT; used by scripts/bench-pane.sh.
func TestWriteBenchData(t *testing.T) {
	out := os.Getenv("BENCH_PANE_OUT")
	if out == "" {
		t.Skip("BENCH_PANE_OUT not set")
	}
	if err := os.WriteFile(out, genLsData(benchSize, "\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkPaneIngest feeds the data through the pane's ingest path
// (Terminal.ingest: lock, Screen.Write, replies, update signal) at 120×40
// with the default 10,000-line scrollback, in 64 KiB chunks as the reader
// goroutine does.
func BenchmarkPaneIngest(b *testing.B) {
	data := benchData(b)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t := NewTerminal("bench", "Bench", 120, 40, 10000)
		for off := 0; off < len(data); off += 64 << 10 {
			end := min(off+64<<10, len(data))
			t.ingest(data[off:end])
			select {
			case <-t.dirty:
			default:
			}
		}
	}
}

// BenchmarkVTIngest feeds the same data through charmbracelet/x/vt v0.1.0
// for comparison.
func BenchmarkVTIngest(b *testing.B) {
	data := benchData(b)
	if os.Getenv("BENCH_VT_FULL") == "" {
		data = data[:8<<20] // x/vt is slow: 8 MiB is enough for a rate
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e := vt.NewEmulator(120, 40)
		for off := 0; off < len(data); off += 64 << 10 {
			end := min(off+64<<10, len(data))
			e.Write(data[off:end])
		}
	}
}

package contextref

import (
	"fmt"
	"strings"
	"testing"
)

// benchText is about 1 MiB of prose holding refs reference links to nrec
// records of mixed kinds (nrec = 0: no reference at all).
func benchText(refs, nrec int) (string, []Record) {
	const size = 1 << 20
	var recs []Record
	for i := 0; i < nrec; i++ {
		recs = append(recs, fuzzRecord(uint8(i), fmt.Sprintf("ctx_%d", i), fmt.Sprintf("line one %d\nline two <b>\nline three", i)))
	}
	prose := "The quick brown fox jumps over the lazy dog; see the build log and the diff below. "
	var b strings.Builder
	b.Grow(size + 1024)
	for i := 0; b.Len() < size; i++ {
		b.WriteString(prose)
		if refs > 0 && i%((size/len(prose))/refs+1) == 0 && i/((size/len(prose))/refs+1) < refs {
			r := recs[i%nrec]
			b.WriteString(FormatLink(r.RecordBase().Kind, r.RecordBase().ContextID, "label "+r.RecordBase().ContextID))
			b.WriteByte(' ')
		}
	}
	return b.String(), recs
}

func BenchmarkScan(b *testing.B) {
	text, _ := benchText(1000, 100)
	if n := len(Scan(text)); n < 900 {
		b.Fatalf("bench text holds %d references, want about 1000", n)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Scan(text)
	}
}

func BenchmarkScanPlain(b *testing.B) {
	text, _ := benchText(0, 0)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Scan(text)
	}
}

func BenchmarkProject(b *testing.B) {
	text, recs := benchText(1000, 100)
	if out := Project(text, recs); !strings.Contains(out, "<t3_context version=\"1\">") {
		b.Fatal("projection has no envelope")
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Project(text, recs)
	}
}

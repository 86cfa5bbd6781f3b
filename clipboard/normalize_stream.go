package clipboard

import (
	"bufio"
	"io"
)

// normalizer streams text with CRLF and lone CR made LF and the control
// characters the draft drops (C0 but tab and LF, DEL, C1) left out.
type normalizer struct {
	r      *bufio.Reader
	lastCR bool // the byte before was a CR (already written as LF)
}

// NewNormalizer reads r as NormalizeText would make it, streamed (a huge
// paste never is one string).
func NewNormalizer(r io.Reader) io.Reader { return &normalizer{r: bufio.NewReaderSize(r, 64<<10)} }

func (n *normalizer) Read(p []byte) (int, error) {
	i := 0
	for i < len(p) {
		c, err := n.r.ReadByte()
		if err != nil {
			if i > 0 {
				return i, nil
			}
			return 0, err
		}
		cr := n.lastCR
		n.lastCR = false
		switch {
		case c == '\r':
			p[i] = '\n'
			i++
			n.lastCR = true
		case c == '\n':
			if !cr {
				p[i] = '\n'
				i++
			}
		case c == '\t':
			p[i] = c
			i++
		case c < 0x20 || c == 0x7f:
		case c == 0xc2:
			next, err := n.r.Peek(1)
			if err == nil && next[0] >= 0x80 && next[0] <= 0x9f {
				_, _ = n.r.ReadByte() // a C1 control: both bytes dropped
				continue
			}
			p[i] = c
			i++
		default:
			p[i] = c
			i++
		}
		if i > 0 && n.r.Buffered() == 0 {
			return i, nil // do not block for more while holding bytes
		}
	}
	return i, nil
}

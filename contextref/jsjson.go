package contextref

import (
	"encoding/json"
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

var errNotJSON = errors.New("not valid JSON")

// JSStringify re-encodes JSON text exactly as JavaScript's
// JSON.stringify(JSON.parse(raw)) writes it: compact; in each object the keys
// that are array indices ("0" … "4294967294", no leading zeros) first in
// ascending order, then the rest in their first-seen order, a repeated key
// keeping its last value; numbers in JavaScript's shortest form (1.50 → 1.5,
// 1e21 → 1e+21, -0 → 0, out of range → null); strings escaping only '"',
// '\\' and control characters (and lone surrogates as \udxxx).
func JSStringify(raw []byte) (string, error) {
	if !json.Valid(raw) {
		return "", errNotJSON
	}
	p := jsParser{src: raw}
	var b strings.Builder
	b.Grow(len(raw))
	p.skipWS()
	p.value(&b)
	return b.String(), nil
}

type jsParser struct {
	src []byte
	i   int
}

func (p *jsParser) skipWS() {
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// value writes the value at p.i; the input is known to be valid JSON.
func (p *jsParser) value(b *strings.Builder) {
	switch c := p.src[p.i]; {
	case c == '{':
		p.object(b)
	case c == '[':
		p.i++
		b.WriteByte('[')
		p.skipWS()
		if p.src[p.i] == ']' {
			p.i++
			b.WriteByte(']')
			return
		}
		for {
			p.skipWS()
			p.value(b)
			p.skipWS()
			if p.src[p.i] == ',' {
				p.i++
				b.WriteByte(',')
				continue
			}
			p.i++ // ']'
			b.WriteByte(']')
			return
		}
	case c == '"':
		p.str(b)
	case c == 't':
		p.i += 4
		b.WriteString("true")
	case c == 'f':
		p.i += 5
		b.WriteString("false")
	case c == 'n':
		p.i += 4
		b.WriteString("null")
	default:
		start := p.i
		for p.i < len(p.src) && strings.IndexByte("+-0123456789.eE", p.src[p.i]) >= 0 {
			p.i++
		}
		f, ok := parseJSONNumber(p.src[start:p.i])
		if !ok || math.IsInf(f, 0) {
			b.WriteString("null")
			return
		}
		b.WriteString(FormatJSNumber(f))
	}
}

type jsMember struct {
	key   string // the key as written by stringify, quotes included
	value string
}

func (p *jsParser) object(b *strings.Builder) {
	p.i++ // '{'
	var members []jsMember
	index := map[string]int{}
	for {
		p.skipWS()
		if p.src[p.i] == '}' {
			p.i++
			break
		}
		var kb, vb strings.Builder
		p.str(&kb)
		p.skipWS()
		p.i++ // ':'
		p.skipWS()
		p.value(&vb)
		k := kb.String()
		if at, ok := index[k]; ok {
			members[at].value = vb.String()
		} else {
			index[k] = len(members)
			members = append(members, jsMember{k, vb.String()})
		}
		p.skipWS()
		if p.src[p.i] == ',' {
			p.i++
		}
	}
	// Array-index keys first, ascending; the rest keep their order.
	sort.SliceStable(members, func(i, j int) bool {
		ai, aok := arrayIndexKey(members[i].key)
		bi, bok := arrayIndexKey(members[j].key)
		if aok && bok {
			return ai < bi
		}
		return aok && !bok
	})
	b.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(m.key)
		b.WriteByte(':')
		b.WriteString(m.value)
	}
	b.WriteByte('}')
}

// arrayIndexKey reports whether a quoted key is a canonical array index.
func arrayIndexKey(quoted string) (uint64, bool) {
	k := quoted[1 : len(quoted)-1]
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return 0, false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < '0' || k[i] > '9' {
			return 0, false
		}
	}
	n, _ := strconv.ParseUint(k, 10, 64)
	return n, n <= 4294967294
}

const hexDigits = "0123456789abcdef"

func writeJSChar(b *strings.Builder, r rune) {
	switch r {
	case '"':
		b.WriteString(`\"`)
	case '\\':
		b.WriteString(`\\`)
	case '\b':
		b.WriteString(`\b`)
	case '\f':
		b.WriteString(`\f`)
	case '\n':
		b.WriteString(`\n`)
	case '\r':
		b.WriteString(`\r`)
	case '\t':
		b.WriteString(`\t`)
	default:
		if r < 0x20 {
			b.WriteString(`\u00`)
			b.WriteByte(hexDigits[r>>4])
			b.WriteByte(hexDigits[r&0xF])
			return
		}
		b.WriteRune(r)
	}
}

func hex4(v int) string {
	return string([]byte{'\\', 'u', hexDigits[v>>12&0xF], hexDigits[v>>8&0xF], hexDigits[v>>4&0xF], hexDigits[v&0xF]})
}

// str writes the string at p.i as JSON.stringify would.
func (p *jsParser) str(b *strings.Builder) {
	p.i++ // opening quote
	b.WriteByte('"')
	for {
		c := p.src[p.i]
		switch {
		case c == '"':
			p.i++
			b.WriteByte('"')
			return
		case c == '\\':
			e := p.src[p.i+1]
			p.i += 2
			switch e {
			case 'b':
				writeJSChar(b, '\b')
			case 'f':
				writeJSChar(b, '\f')
			case 'n':
				writeJSChar(b, '\n')
			case 'r':
				writeJSChar(b, '\r')
			case 't':
				writeJSChar(b, '\t')
			case 'u':
				u := p.hexUnit()
				if u >= 0xD800 && u <= 0xDBFF && p.i+6 <= len(p.src) && p.src[p.i] == '\\' && p.src[p.i+1] == 'u' {
					save := p.i
					p.i += 2
					lo := p.hexUnit()
					if lo >= 0xDC00 && lo <= 0xDFFF {
						writeJSChar(b, rune(0x10000+(u-0xD800)<<10+(lo-0xDC00)))
						continue
					}
					p.i = save
				}
				if u >= 0xD800 && u <= 0xDFFF {
					b.WriteString(hex4(u)) // a lone surrogate
					continue
				}
				writeJSChar(b, rune(u))
			default: // '"', '\\', '/'
				writeJSChar(b, rune(e))
			}
		case c < utf8.RuneSelf:
			p.i++
			writeJSChar(b, rune(c))
		default:
			r, size := utf8.DecodeRune(p.src[p.i:])
			p.i += size
			b.WriteRune(r)
		}
	}
}

func (p *jsParser) hexUnit() int {
	v, _ := strconv.ParseUint(string(p.src[p.i:p.i+4]), 16, 16)
	p.i += 4
	return int(v)
}

// FormatJSNumber writes f as JavaScript's Number.prototype.toString does.
func FormatJSNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	sign := ""
	if f < 0 {
		sign = "-"
		f = -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, expPart, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expPart)
	k := len(digits)
	n := exp + 1
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	es := "+"
	if n-1 < 0 {
		es = "-"
	}
	ex := strconv.Itoa(abs(n - 1))
	if k == 1 {
		return sign + digits + "e" + es + ex
	}
	return sign + digits[:1] + "." + digits[1:] + "e" + es + ex
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

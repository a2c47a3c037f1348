package secrets

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// gram is how many bytes the matcher indexes: every form of at least gram
// bytes is found by its first gram bytes, every fragment by any gram bytes
// of its source. It is MinFragmentLength so that any fragment long enough
// to redact holds a whole gram.
const gram = MinFragmentLength

// A matcher finds every form of a principal's values in a text in one pass:
// text positions are hashed gram bytes at a time against a small bit filter
// and, on a hit, looked up in an index of the forms' and fragment sources'
// grams. Forms shorter than gram bytes are few and searched for directly.
type matcher struct {
	labels []string  // "[secret name]" per value
	exact  []pattern // forms of gram bytes or more
	short  []pattern // forms shorter than gram bytes
	frags  []pattern // texts whose pieces are redacted too
	index  map[uint64][]ref
	filter [1 << 16 / 64]uint64
}

type pattern struct {
	text  string
	label int
}

// A ref is a gram's place: the start of exact[i], or offset off in frags[i].
type ref struct {
	frag bool
	i    int32
	off  int32
}

// span is a stretch of text to replace by labels[label].
type span struct{ start, end, label int }

const gramMask = 1<<(8*gram) - 1

func filterBit(g uint64) uint64 { return (g * 0x9E3779B97F4A7C15) >> 48 }

func (m *matcher) mark(g uint64, r ref) {
	if m.index == nil {
		m.index = map[uint64][]ref{}
	}
	m.index[g] = append(m.index[g], r)
	h := filterBit(g)
	m.filter[h>>6] |= 1 << (h & 63)
}

func gramAt(s string, i int) uint64 {
	var g uint64
	for _, c := range []byte(s[i : i+gram]) {
		g = g<<8 | uint64(c)
	}
	return g
}

// add registers a value's forms and fragment sources under label.
func (m *matcher) add(label string, forms, fragments []string) {
	if len(forms) == 0 {
		return
	}
	l := len(m.labels)
	m.labels = append(m.labels, label)
	for _, f := range forms {
		if len(f) < gram {
			m.short = append(m.short, pattern{f, l})
			continue
		}
		m.mark(gramAt(f, 0), ref{i: int32(len(m.exact))})
		m.exact = append(m.exact, pattern{f, l})
	}
	for _, f := range fragments {
		if utf8.RuneCountInString(f) <= MinFragmentLength {
			continue // any piece long enough is the whole form
		}
		i := int32(len(m.frags))
		m.frags = append(m.frags, pattern{f, l})
		for off := 0; off+gram <= len(f); off++ {
			m.mark(gramAt(f, off), ref{frag: true, i: i, off: int32(off)})
		}
	}
}

// find returns the stretches of text holding a form or a fragment, in no
// order; with first, it stops at the first.
func (m *matcher) find(text string, first bool) []span {
	var spans []span
	for _, p := range m.short {
		for at := 0; ; {
			j := strings.Index(text[at:], p.text)
			if j < 0 {
				break
			}
			spans = append(spans, span{at + j, at + j + len(p.text), p.label})
			if first {
				return spans
			}
			at += j + 1
		}
	}
	if len(m.index) == 0 {
		return spans
	}
	var g uint64
	for i := 0; i < len(text); i++ {
		g = (g<<8 | uint64(text[i])) & gramMask
		if i < gram-1 {
			continue
		}
		if h := filterBit(g); m.filter[h>>6]&(1<<(h&63)) == 0 {
			continue
		}
		start := i - gram + 1
		for _, r := range m.index[g] {
			if !r.frag {
				if p := m.exact[r.i]; strings.HasPrefix(text[start:], p.text) {
					spans = append(spans, span{start, start + len(p.text), p.label})
				}
			} else if sp, ok := m.fragment(text, start, m.frags[r.i], int(r.off)); ok {
				spans = append(spans, sp)
			}
			if first && len(spans) > 0 {
				return spans
			}
		}
	}
	return spans
}

// fragment looks at the run of text from start that matches src from off
// and reports whether it is a piece to redact (see the package
// documentation, Redaction).
func (m *matcher) fragment(text string, start int, src pattern, off int) (span, bool) {
	s := src.text
	if start > 0 && off > 0 && text[start-1] == s[off-1] {
		return span{}, false // the run began earlier and was judged there
	}
	n := gram
	for start+n < len(text) && off+n < len(s) && text[start+n] == s[off+n] {
		n++
	}
	// Whole characters only.
	b, e := start, start+n
	for b < e && !utf8.RuneStart(text[b]) {
		b++
	}
	for e > b && e < len(text) && !utf8.RuneStart(text[e]) {
		e--
	}
	run := text[b:e]
	if utf8.RuneCountInString(run) < MinFragmentLength {
		return span{}, false
	}
	if !strong(run) {
		so, eo := off+(b-start), off+(e-start)
		if !alone(text[:b], text[e:]) || !cuts(s[:so], run, s[eo:]) {
			return span{}, false
		}
	}
	return span{b, e, src.label}, true
}

// strong reports whether a piece holds a character that ordinary words do
// not: anything but letters, spaces and the punctuation inside words,
// e-mail addresses and host names (. - _ @ ').
func strong(run string) bool {
	for _, r := range run {
		if !word(r) && !unicode.IsSpace(r) && !strings.ContainsRune(".-_@'", r) {
			return true
		}
	}
	return false
}

func word(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) }

// alone reports whether a piece stands on its own in the text: no letter or
// digit touches it (as the content of a field, a quoted string or a cell).
func alone(before, after string) bool {
	r, _ := utf8.DecodeLastRuneInString(before)
	q, _ := utf8.DecodeRuneInString(after)
	an := func(r rune) bool { return r != utf8.RuneError && (word(r) || unicode.IsDigit(r)) }
	return !an(r) && !an(q)
}

// cuts reports whether a piece ends in the middle of a word of the value:
// a letter of the piece touches a letter of the value just outside it, as
// when a field with a maxlength cut the value short. A piece that is a
// whole word of the value ("Password" of "Password1!") is not cut.
func cuts(before, run, after string) bool {
	a, _ := utf8.DecodeLastRuneInString(before)
	b, _ := utf8.DecodeRuneInString(run)
	c, _ := utf8.DecodeLastRuneInString(run)
	d, _ := utf8.DecodeRuneInString(after)
	return before != "" && word(a) && word(b) || after != "" && word(c) && word(d)
}

// replace writes text with each span's stretch replaced by its label;
// overlapping spans become one, labelled by the earliest (and longest).
func (m *matcher) replace(text string, spans []span) string {
	slices.SortFunc(spans, func(a, b span) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	var out strings.Builder
	out.Grow(len(text))
	at := 0
	for i := 0; i < len(spans); {
		sp := spans[i]
		end := sp.end
		for i++; i < len(spans) && spans[i].start < end; i++ {
			end = max(end, spans[i].end)
		}
		out.WriteString(text[at:sp.start])
		out.WriteString(m.labels[sp.label])
		at = end
	}
	out.WriteString(text[at:])
	return out.String()
}

// Package peerbench measures selenium-flow beside its peers — Playwright
// MCP, and chrome-devtools-mcp when it starts — driven by the same MCP
// client (mcp-go over stdio) on the same pages in the same run: the
// fixture site and a real Django admin. Repeats are interleaved, so load
// on the machine falls on every peer alike.
//
// It reports, per peer and page, the bytes and tokens (bytes/4) of the
// page description an agent reads (outline or snapshot), and the median
// and p90 wall time of navigate, outline/snapshot, type, click and a whole
// task; it prints a table and writes JSON. It is not part of make test:
//
//	make bench-peers    # FLOW_PEERBENCH=1 go test -run '^TestPeers$' -v ./internal/peerbench/
//
// The peers are installed from npm into a temporary folder at each run and
// drive the system Chromium (--headless --isolated --executable-path), so
// they download nothing of their own.
package peerbench

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// Report is one run's measurements.
type Report struct {
	Started time.Time `json:"started"`
	Repeats int       `json:"repeats"`
	// Peers are the servers measured, selenium-flow first.
	Peers []string `json:"peers"`
	// Pages are the description sizes, per page and peer.
	Pages []PageSize `json:"pages"`
	// Steps are the timings, per step and peer.
	Steps []StepTime `json:"steps"`
}

// PageSize is the size of one page's description as one peer gives it.
type PageSize struct {
	Page   string `json:"page"`
	Peer   string `json:"peer"`
	Bytes  int    `json:"bytes"`
	Tokens int    `json:"tokens"` // bytes/4, the usual estimate
}

// StepTime is the wall time of one kind of step on one peer.
type StepTime struct {
	Step     string  `json:"step"`
	Peer     string  `json:"peer"`
	N        int     `json:"n"`
	MedianMS float64 `json:"median_ms"`
	P90MS    float64 `json:"p90_ms"`
}

// Timings collects durations per step and peer.
type Timings map[[2]string][]time.Duration

// Add records one step's duration on a peer.
func (t Timings) Add(step, peer string, d time.Duration) {
	k := [2]string{step, peer}
	t[k] = append(t[k], d)
}

// Steps summarises the timings in the order of the steps and peers given.
func (t Timings) Steps(steps, peers []string) []StepTime {
	var out []StepTime
	for _, s := range steps {
		for _, p := range peers {
			ds := t[[2]string{s, p}]
			if len(ds) == 0 {
				continue
			}
			out = append(out, StepTime{Step: s, Peer: p, N: len(ds), MedianMS: ms(quantile(ds, 0.5)), P90MS: ms(quantile(ds, 0.9))})
		}
	}
	return out
}

func quantile(ds []time.Duration, q float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// WriteTable prints the report for a person: sizes with each peer's ratio
// to selenium-flow's, then timings likewise.
func (r Report) WriteTable(w io.Writer) {
	base := r.Peers[0]
	fmt.Fprintf(w, "\nPage description (bytes, tokens ≈ bytes/4; ×: peer ÷ %s)\n", base)
	writeGrid(w, "page", r.Peers, r.Pages,
		func(p PageSize) (string, string) { return p.Page, p.Peer },
		func(sz, first PageSize, isFirst bool) string {
			if isFirst {
				return fmt.Sprintf("%d B %d tok", sz.Bytes, sz.Tokens)
			}
			return fmt.Sprintf("%d B %d tok %.1f×", sz.Bytes, sz.Tokens, float64(sz.Bytes)/float64(max(first.Bytes, 1)))
		})
	fmt.Fprintf(w, "\nWall time per step, median / p90 ms (×: %s ÷ peer, medians)\n", base)
	writeGrid(w, "step", r.Peers, r.Steps,
		func(st StepTime) (string, string) { return st.Step, st.Peer },
		func(st, first StepTime, isFirst bool) string {
			if isFirst {
				return fmt.Sprintf("%.1f / %.1f", st.MedianMS, st.P90MS)
			}
			return fmt.Sprintf("%.1f / %.1f %.2f×", st.MedianMS, st.P90MS, first.MedianMS/max(st.MedianMS, 0.001))
		})
}

// writeGrid prints one row per row key of xs and one column per peer; a
// cell is cell(x, the row's first peer's x, whether x is the first peer's),
// or "-" where the peer has none.
func writeGrid[T any](w io.Writer, title string, peers []string, xs []T, key func(T) (row, peer string), cell func(x, first T, isFirst bool) string) {
	fmt.Fprintf(w, "%-28s", title)
	for _, p := range peers {
		fmt.Fprintf(w, " %24s", p)
	}
	fmt.Fprintln(w)
	for _, row := range uniq(xs, func(x T) string { r, _ := key(x); return r }) {
		fmt.Fprintf(w, "%-28s", row)
		var first T
		for i, peer := range peers {
			j := -1 // the last entry for the row and peer, as the report adds them
			for k, x := range xs {
				if r, p := key(x); r == row && p == peer {
					j = k
				}
			}
			switch {
			case j < 0:
				fmt.Fprintf(w, " %24s", "-")
			case i == 0:
				first = xs[j]
				fmt.Fprintf(w, " %24s", cell(xs[j], first, true))
			default:
				fmt.Fprintf(w, " %24s", cell(xs[j], first, false))
			}
		}
		fmt.Fprintln(w)
	}
}

// WriteJSON writes the report as indented JSON.
func (r Report) WriteJSON(w io.Writer) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(r)
}

func uniq[T any](xs []T, key func(T) string) []string {
	var out []string
	for _, x := range xs {
		if k := key(x); !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// Ref finds, in a snapshot that marks elements with references (Playwright
// MCP's "[ref=e12]", chrome-devtools-mcp's "uid=1_3"), the reference of
// the first line holding every one of want, for the peer's click or type.
func Ref(snapshot string, want ...string) (string, bool) {
	for _, line := range strings.Split(snapshot, "\n") {
		if !containsAll(line, want) {
			continue
		}
		if _, after, ok := strings.Cut(line, "[ref="); ok {
			ref, _, _ := strings.Cut(after, "]")
			return ref, true
		}
		if _, after, ok := strings.Cut(line, "uid="); ok {
			ref, _, _ := strings.Cut(after, " ")
			return ref, true
		}
	}
	return "", false
}

func containsAll(s string, want []string) bool {
	for _, w := range want {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

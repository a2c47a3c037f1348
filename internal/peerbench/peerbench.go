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
	fmt.Fprintf(w, "%-28s", "page")
	for _, p := range r.Peers {
		fmt.Fprintf(w, " %24s", p)
	}
	fmt.Fprintln(w)
	for _, page := range uniq(r.Pages, func(p PageSize) string { return p.Page }) {
		fmt.Fprintf(w, "%-28s", page)
		var b0 int
		for i, peer := range r.Peers {
			var sz *PageSize
			for j := range r.Pages {
				if r.Pages[j].Page == page && r.Pages[j].Peer == peer {
					sz = &r.Pages[j]
				}
			}
			switch {
			case sz == nil:
				fmt.Fprintf(w, " %24s", "-")
			case i == 0:
				b0 = sz.Bytes
				fmt.Fprintf(w, " %24s", fmt.Sprintf("%d B %d tok", sz.Bytes, sz.Tokens))
			default:
				fmt.Fprintf(w, " %24s", fmt.Sprintf("%d B %d tok %.1f×", sz.Bytes, sz.Tokens, float64(sz.Bytes)/float64(max(b0, 1))))
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nWall time per step, median / p90 ms (×: %s ÷ peer, medians)\n", base)
	fmt.Fprintf(w, "%-28s", "step")
	for _, p := range r.Peers {
		fmt.Fprintf(w, " %24s", p)
	}
	fmt.Fprintln(w)
	for _, step := range uniq(r.Steps, func(s StepTime) string { return s.Step }) {
		fmt.Fprintf(w, "%-28s", step)
		var m0 float64
		for i, peer := range r.Peers {
			var st *StepTime
			for j := range r.Steps {
				if r.Steps[j].Step == step && r.Steps[j].Peer == peer {
					st = &r.Steps[j]
				}
			}
			switch {
			case st == nil:
				fmt.Fprintf(w, " %24s", "-")
			case i == 0:
				m0 = st.MedianMS
				fmt.Fprintf(w, " %24s", fmt.Sprintf("%.1f / %.1f", st.MedianMS, st.P90MS))
			default:
				fmt.Fprintf(w, " %24s", fmt.Sprintf("%.1f / %.1f %.2f×", st.MedianMS, st.P90MS, m0/max(st.MedianMS, 0.001)))
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

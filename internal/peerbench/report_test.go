package peerbench_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/peerbench"
)

// TestRef: a peer's reference is found on the first line naming the
// element, in either peer's snapshot syntax.
func TestRef(t *testing.T) {
	playwright := "- textbox \"Email\" [ref=e23]:\n  - /placeholder: you@company.com\n- button \"Sign in\" [ref=e35] [cursor=pointer]"
	devtools := "uid=1_4 textbox \"Email\"\nuid=1_9 button \"Sign in\""
	cases := []struct {
		name, snapshot string
		want           []string
		ref            string
		ok             bool
	}{
		{"playwright field", playwright, []string{"textbox", "Email"}, "e23", true},
		{"playwright button", playwright, []string{"button", "Sign in"}, "e35", true},
		{"devtools field", devtools, []string{"textbox", "Email"}, "1_4", true},
		{"devtools button", devtools, []string{"button", "Sign in"}, "1_9", true},
		{"absent", playwright, []string{"button", "Log in"}, "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ref, ok := peerbench.Ref(tc.snapshot, tc.want...)
			assert.Check(t, is.Equal(ok, tc.ok))
			assert.Check(t, is.Equal(ref, tc.ref))
		})
	}
}

// TestReport: timings become median and p90 per step and peer in the
// order asked, and the table and JSON carry them with the ratios.
func TestReport(t *testing.T) {
	times := peerbench.Timings{}
	for i := 1; i <= 10; i++ {
		times.Add("click", "a", time.Duration(i)*time.Millisecond)
		times.Add("click", "b", time.Duration(2*i)*time.Millisecond)
	}
	steps := times.Steps([]string{"click", "type"}, []string{"a", "b"})
	assert.Check(t, is.DeepEqual(steps, []peerbench.StepTime{
		{Step: "click", Peer: "a", N: 10, MedianMS: 6, P90MS: 10},
		{Step: "click", Peer: "b", N: 10, MedianMS: 12, P90MS: 20},
	}))
	rep := peerbench.Report{Peers: []string{"a", "b"}, Repeats: 10, Steps: steps,
		Pages: []peerbench.PageSize{{Page: "login", Peer: "a", Bytes: 100, Tokens: 25}, {Page: "login", Peer: "b", Bytes: 400, Tokens: 100}}}
	var table bytes.Buffer
	rep.WriteTable(&table)
	assert.Check(t, is.Contains(table.String(), "400 B 100 tok 4.0×"))
	assert.Check(t, is.Contains(table.String(), "12.0 / 20.0 0.50×"))
	var js bytes.Buffer
	assert.NilError(t, rep.WriteJSON(&js))
	var back peerbench.Report
	assert.NilError(t, json.Unmarshal(js.Bytes(), &back))
	assert.Check(t, is.DeepEqual(back.Steps, steps))
	assert.Check(t, strings.Contains(js.String(), `"median_ms": 6`))
}

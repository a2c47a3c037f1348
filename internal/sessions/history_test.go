package sessions

import (
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// TestHistoryBoundedAndRanged: the ring keeps the last HistorySize
// actions numbered on, ranges pick by number, and a recording marks the
// range between start and stop.
func TestHistoryBoundedAndRanged(t *testing.T) {
	s := &Session{}
	for range HistorySize + 5 {
		s.Record(Action{Tool: "click"})
	}
	all := s.History(0, 0)
	assert.Assert(t, is.Len(all, HistorySize))
	assert.Check(t, is.Equal(all[0].Seq, 6))
	assert.Check(t, is.Equal(all[len(all)-1].Seq, HistorySize+5))
	assert.Check(t, is.Len(s.History(10, 12), 3))

	from, to := s.StopRecording()
	assert.Check(t, is.Equal(from, 0), "no recording yet")
	assert.Check(t, is.Equal(to, 0))
	start := s.StartRecording()
	assert.Check(t, is.Equal(s.Recording(), start))
	s.Record(Action{Tool: "write"})
	s.Record(Action{Tool: "click"})
	from, to = s.StopRecording()
	assert.Check(t, is.Equal(from, start))
	assert.Check(t, is.Equal(to, start+1))
	assert.Check(t, is.Equal(s.Recording(), 0))
	s.Record(Action{Tool: "navigate"})
	from2, to2 := s.StopRecording()
	assert.Check(t, is.Equal(from2, from), "the last recording stays")
	assert.Check(t, is.Equal(to2, to))
	assert.Check(t, is.Len(s.History(from, to), 2))
	last1, last2 := s.LastRecording()
	assert.Check(t, is.Equal(last1, from))
	assert.Check(t, is.Equal(last2, to))
}

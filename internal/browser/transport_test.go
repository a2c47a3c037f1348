package browser

import (
	"context"
	"net/http"
	"net/url"
	"sync"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// commandLog is a WithTransport wrapper that notes each request's method and
// path.
type commandLog struct {
	mu   sync.Mutex
	seen []string
}

func (r *commandLog) wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		r.mu.Lock()
		r.seen = append(r.seen, req.Method+" "+req.URL.Path)
		r.mu.Unlock()
		return next.RoundTrip(req)
	})
}

// TestWithTransport: every command to a Driver's endpoint goes through
// the transport it was given, and only while the Driver is open; another
// endpoint's commands do not.
func TestWithTransport(t *testing.T) {
	ep := fakeEndpoint(t, func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", http.StatusInternalServerError) })
	other := fakeEndpoint(t, func(w http.ResponseWriter, r *http.Request) {})
	rec := &commandLog{}
	d, err := Start(context.Background(), WithSeleniumURL(ep.URL), WithTransport(rec.wrap))
	assert.NilError(t, err)
	_, err = d.NewSession(context.Background(), SessionOptions{})
	assert.Check(t, err != nil)
	d2, err := Start(context.Background(), WithSeleniumURL(other.URL))
	assert.NilError(t, err)
	defer d2.Close()
	rec.mu.Lock()
	assert.Check(t, is.Contains(rec.seen, "GET /status"))
	assert.Check(t, is.Contains(rec.seen, "POST /session"))
	n := len(rec.seen)
	rec.mu.Unlock()

	u, _ := url.Parse(ep.URL + "/status")
	assert.Check(t, wrappedFor(u) != nil)
	assert.NilError(t, d.Close())
	assert.Check(t, wrappedFor(u) == nil, "the transport outlives its Driver")
	rec.mu.Lock()
	assert.Check(t, is.Len(rec.seen, n), "another endpoint's commands went through the transport: %v", rec.seen)
	rec.mu.Unlock()
}

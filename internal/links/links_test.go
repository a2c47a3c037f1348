package links

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// TestCheck: a link checks as made; any change to its principal, path,
// expiry or signature, or a request after it expired, is refused with
// the error that says which.
func TestCheck(t *testing.T) {
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	s := New([]byte("0123456789abcdef0123"), WithTTL(time.Hour), WithClock(clock))
	link := s.Sign("alice", "/files/shot 1.png")
	assert.Check(t, strings.HasPrefix(link, "/files/shot%201.png?"), link)

	edit := func(f func(u *url.URL, q url.Values)) string {
		u, err := url.Parse(link)
		assert.NilError(t, err)
		q := u.Query()
		f(u, q)
		u.RawQuery = q.Encode()
		return u.String()
	}
	for _, tc := range []struct {
		name string
		link string
		at   time.Time
		want error
	}{
		{"as made", link, now, nil},
		{"just before expiry", link, now.Add(time.Hour - time.Second), nil},
		{"at expiry", link, now.Add(time.Hour), ErrExpired},
		{"other principal", edit(func(_ *url.URL, q url.Values) { q.Set(QueryPrincipal, "bob") }), now, ErrInvalid},
		{"no principal", edit(func(_ *url.URL, q url.Values) { q.Del(QueryPrincipal) }), now, ErrInvalid},
		{"other path", edit(func(u *url.URL, _ url.Values) { u.Path = "/files/other.png" }), now, ErrInvalid},
		{"later expiry", edit(func(_ *url.URL, q url.Values) { q.Set(QueryExpiry, "99999999999") }), now, ErrInvalid},
		{"expiry not a number", edit(func(_ *url.URL, q url.Values) { q.Set(QueryExpiry, "soon") }), now, ErrInvalid},
		{"forged signature", edit(func(_ *url.URL, q url.Values) { q.Set(QuerySignature, "AAAA") }), now, ErrInvalid},
		{"other key", New([]byte("another key of 16+ bytes"), WithClock(clock)).Sign("alice", "/files/shot 1.png"), now, ErrInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			at := tc.at
			checker := New([]byte("0123456789abcdef0123"), WithClock(func() time.Time { return at }))
			u, err := url.Parse(tc.link)
			assert.NilError(t, err)
			assert.Check(t, Signed(u))
			p, err := checker.Check(u)
			if tc.want == nil {
				assert.NilError(t, err)
				assert.Check(t, is.Equal(p, "alice"))
				return
			}
			assert.Check(t, errors.Is(err, tc.want), "got %v", err)
		})
	}
}

// TestLoadKey: FLOW_LINK_KEY wins; otherwise one key is made, kept 0600,
// and read back by every replica, even when several start at once.
func TestLoadKey(t *testing.T) {
	dir := t.TempDir()
	k, err := LoadKey("an operator's long link key", dir)
	assert.NilError(t, err)
	assert.Check(t, is.Equal(string(k), "an operator's long link key"))
	_, err = LoadKey("short", dir)
	assert.Check(t, is.ErrorContains(err, "FLOW_LINK_KEY"))

	keys := make([][]byte, 8)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Go(func() {
			var err error
			keys[i], err = LoadKey("", dir)
			assert.Check(t, err)
		})
	}
	wg.Wait()
	for _, k := range keys[1:] {
		assert.Check(t, is.Equal(string(k), string(keys[0])), "replicas disagree on the key")
	}
	fi, err := os.Stat(filepath.Join(dir, KeyFile))
	assert.NilError(t, err)
	assert.Check(t, is.Equal(fi.Mode().Perm(), os.FileMode(0o600)))
	assert.Check(t, len(keys[0]) >= 32)
}

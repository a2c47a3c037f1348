package browser

import (
	"errors"
	"os"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// TestGridAttach: a session let go of (Detach) is driven again by id from
// another Driver, at the same page; an id the Grid does not know is
// ErrSessionGone.
func TestGridAttach(t *testing.T) {
	gridURL := os.Getenv("SELENIUM_URL")
	if gridURL == "" {
		t.Skip("SELENIUM_URL is not set")
	}
	ctx := testenv.Context(t)
	one, err := Start(ctx, WithSeleniumURL(gridURL))
	assert.NilError(t, err)
	s, err := one.NewSession(ctx, SessionOptions{})
	assert.NilError(t, err)
	assert.NilError(t, s.Navigate(page("/frames")))
	assert.NilError(t, s.Detach())
	assert.NilError(t, one.Close()) // a detached session is not ended with its driver

	two, err := Start(ctx, WithSeleniumURL(gridURL))
	assert.NilError(t, err)
	defer two.Close()
	again, err := two.Attach(ctx, s.ID(), SessionOptions{})
	assert.NilError(t, err)
	defer again.Close()
	assert.Check(t, is.Equal(again.ID(), s.ID()))
	u, err := again.CurrentURL()
	assert.NilError(t, err)
	assert.Check(t, is.Equal(u, page("/frames")))
	assert.Check(t, again.Version() != "")

	_, err = two.Attach(ctx, "0123456789abcdef0123456789abcdef", SessionOptions{})
	assert.Check(t, errors.Is(err, ErrSessionGone), "%v", err)
	_, err = two.Attach(ctx, "../status", SessionOptions{})
	assert.Check(t, err != nil)
}

// TestLocalAttachRefused: a local chromedriver's sessions end with it, so
// attaching to one is ErrSessionGone at once.
func TestLocalAttachRefused(t *testing.T) {
	testenv.NeedBrowser(t)
	d, err := Start(testenv.Context(t))
	assert.NilError(t, err)
	defer d.Close()
	_, err = d.Attach(testenv.Context(t), "0123456789abcdef", SessionOptions{})
	assert.Check(t, errors.Is(err, ErrSessionGone), "%v", err)
}

package browser

import (
	"errors"
	"net"
	"net/url"
	"strings"
	"testing"

	"github.com/tebeka/selenium"
	"gotest.tools/v3/assert"
)

func TestCleanErrors(t *testing.T) {
	tests := []struct {
		err  error
		want string
		gone bool
	}{
		{&selenium.Error{Err: "invalid session id", Message: "invalid session id: session deleted as the browser has closed the connection"}, ErrSessionGone.Error(), true},
		{&selenium.Error{Err: "unknown error", Message: "unknown error: session deleted because of page crash\nfrom tab crashed\n  (Session info: chrome=156.0)"}, ErrSessionGone.Error(), true},
		{&selenium.Error{Err: "unknown error", Message: "unknown error: net::ERR_CONNECTION_REFUSED\n  (Session info: chrome=156.0)"}, "the page could not be loaded (net::ERR_CONNECTION_REFUSED)", false},
		{&selenium.Error{Err: "element click intercepted", Message: "element click intercepted: Element <button> is not clickable at point (10, 20). Other element would receive the click: <div class=overlay>"}, "another element covers it and would receive the click; close the overlay or wait for it to go", false},
		{&selenium.Error{Err: "javascript error", Message: "javascript error: Failed to fetch http://127.0.0.1:9515/x from /tmp/profile/a.js at 10.0.0.1:4444\n  (Session info: chrome=156.0)"}, "a script in the page failed: Failed to fetch … from … at …", false},
		{&selenium.Error{Err: "some new error", Message: "details at http://127.0.0.1:4444/wd/hub"}, "the browser reported an error (some new error)", false},
		{&selenium.Error{Err: "Weird<Code>", Message: "/tmp/x"}, "the browser reported an error", false},
		{&url.Error{Op: "Post", URL: "http://127.0.0.1:9515/session/abc/url", Err: &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}}, ErrSessionGone.Error(), true},
		{errors.New(`got content type "text/html", expected "application/json"`), "the driver sent an unexpected reply", false},
	}
	for _, tc := range tests {
		got := clean(tc.err)
		assert.Equal(t, got.Error(), tc.want)
		assert.Equal(t, errors.Is(got, ErrSessionGone), tc.gone, tc.want)
		for _, bad := range []string{"127.0.0.1", "9515", "4444", "/tmp", "10.0.0.1", "Session info"} {
			assert.Assert(t, !strings.Contains(got.Error(), bad), "%q contains %q", got, bad)
		}
	}
}

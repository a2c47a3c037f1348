package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/tebeka/selenium"
)

// attachCap marks a new-session request that is not one: it asks for a
// client of the session already running with the id it carries. tebeka's
// WebDriver can only be made by creating a session, so the transport
// answers such a request itself (attachReply) and the endpoint never sees
// it; the client then drives the existing session as W3C lets any client
// do.
const attachCap = "selenium-flow:attach"

// Attach returns the session with WebDriver id id, already running on the
// Driver's endpoint (a Grid keeps sessions when the process that opened
// them ends), after checking that it answers. o says how it was opened
// (its window and timeouts), as NewSession was given it. A session that no
// longer exists is ErrSessionGone.
func (d *Driver) Attach(ctx context.Context, id string, o SessionOptions) (*Session, error) {
	if id == "" || strings.ContainsAny(id, "/?#") {
		return nil, errors.New("browser: attach: not a session id")
	}
	if !d.remote {
		return nil, fmt.Errorf("browser: attach: a local chromedriver's sessions end with it: %w", ErrSessionGone)
	}
	win := o.Window
	if win.Width <= 0 || win.Height <= 0 {
		win = DefaultWindow
	}
	wd, err := selenium.NewRemote(selenium.Capabilities{"browserName": "chrome", attachCap: id}, d.base)
	if err != nil || wd == nil || wd.SessionID() != id {
		return nil, errors.New("browser: attach: the WebDriver client could not be made")
	}
	s := &Session{d: d, wd: wd, id: id, browser: "chrome", window: win, newDoc: true}
	// The session must answer: a Grid that reaped it says "invalid session
	// id", which clean turns into ErrSessionGone.
	actx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if _, err := s.raw(actx, "GET", "/url", nil); err != nil {
		return nil, fmt.Errorf("browser: attach: %w", sessionGone(err))
	}
	// Commands start at the top of the window, where a new Session thinks
	// it is; the caller enters the frames it was in again (EnterFrame).
	_, _ = s.raw(actx, "POST", "/frame", map[string]any{"id": nil})
	pageLoad, _ := timeoutOr("page load", o.PageLoadTimeout, DefaultPageLoadTimeout)
	scriptT, _ := timeoutOr("script", o.ScriptTimeout, DefaultScriptTimeout)
	if need := max(pageLoad, scriptT) + 15*time.Second; need > d.timeout {
		setTimeout(s.base(), need)
	}
	if err := d.add(s); err != nil {
		return nil, err
	}
	if err := s.initWindows(); err != nil {
		s.d.remove(s)
		return nil, fmt.Errorf("browser: attach: %w", s.fail("", err))
	}
	s.readVersion()
	return s, nil
}

// sessionGone says that a session that cannot be reached is gone, whatever
// the endpoint answered.
func sessionGone(err error) error {
	if c := clean(err); errors.Is(c, ErrSessionGone) {
		return c
	}
	return fmt.Errorf("%v: %w", clean(err), ErrSessionGone)
}

// attachReply answers a new-session request that carries attachCap with
// the session id it names, and reports false for every other request.
func attachReply(r *http.Request) (*http.Response, bool) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/session") || r.Body == nil {
		return nil, false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil || !bytes.Contains(body, []byte(attachCap)) {
		return nil, false
	}
	var req struct {
		Capabilities struct {
			AlwaysMatch map[string]any `json:"alwaysMatch"`
		} `json:"capabilities"`
	}
	if json.Unmarshal(body, &req) != nil {
		return nil, false
	}
	id, _ := req.Capabilities.AlwaysMatch[attachCap].(string)
	if id == "" {
		return nil, false
	}
	reply, _ := json.Marshal(map[string]any{"value": map[string]any{"sessionId": id, "capabilities": map[string]any{"browserName": "chrome"}}})
	return &http.Response{
		StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/json; charset=utf-8"}},
		Body:   io.NopCloser(bytes.NewReader(reply)), ContentLength: int64(len(reply)), Request: r,
	}, true
}

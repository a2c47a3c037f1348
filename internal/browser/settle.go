package browser

import (
	"errors"
	"os"
	"time"
)

// A click on a submit button or a link, or Enter in a form, starts a
// navigation that WebDriver's command may return before: the old document
// is still there while the request is in flight. Without waiting, the
// caller is told about the page it is leaving. markScript notes, in the
// current document, when a navigation away begins (the Navigation API's
// navigate event, or beforeunload where that API is missing); settle
// gives the page one task of its own to begin one, then waits for the
// next document to finish loading if it did. Click has resolve run markBody (page.js
// holds a copy, which a test checks) instead of sending markScript.
const markBody = `window.__sfLeaving = false;
if (!window.__sfMarked) { window.__sfMarked = true; window.addEventListener('beforeunload', function () { window.__sfLeaving = true; }); }
if (window.navigation && !window.__sfNav) { window.__sfNav = true; navigation.addEventListener('navigate', function (e) { if (!e.destination.sameDocument) window.__sfLeaving = true; }); }`

const markScript = markBody + "\nreturn true;"

// probeScript reports which document answers: "old" (still the marked one,
// not leaving), "leaving" (the marked one, unloading), or "new:<readyState>",
// with the document's title and URL beside it ([state, title, url]): the
// report after the action says where the page is, without two commands of
// its own (where.go).
const probeScript = `return [window.__sfMarked ? (window.__sfLeaving ? 'leaving' : 'old') : 'new:' + document.readyState, document.title, location.href];`

// firstProbeScript is probeScript run once the page has had a task of
// its own after the action: a handler that navigates from a timer of 0 ms
// has done so by then. The page waits, not the server: no fixed pause.
const firstProbeScript = `var done = arguments[arguments.length - 1];
setTimeout(function () { done([window.__sfMarked ? (window.__sfLeaving ? 'leaving' : 'old') : 'new:' + document.readyState, document.title, location.href]); }, 0);`

// How long settle waits for a navigation that started, how often it
// looks, and from when it asks whether the navigation became a download.
const (
	settleWait   = 15 * time.Second
	settleTick   = 25 * time.Millisecond
	downloadLook = 200 * time.Millisecond
)

// downloadSince reports whether a local session's download folder holds a
// file, finished or not, written since t: a link or form answered with a
// file leaves the page where it was, still marked as leaving. A Grid
// keeps its downloads out of reach of a cheap look, so there the wait
// runs its course.
func (s *Session) downloadSince(t time.Time) bool {
	if s.d.remote || s.downloadDir == "" {
		return false
	}
	entries, err := os.ReadDir(s.downloadDir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && !fi.ModTime().Before(t.Add(-time.Second)) {
			return true
		}
	}
	return false
}

// mark prepares settle; it is best effort, as the page may forbid scripts.
func (s *Session) mark() bool {
	_, err := s.wd.ExecuteScript(markScript, nil)
	return err == nil
}

// settle waits, after an action, for a navigation the action started to
// finish; an action that started none costs a few probes. A dialog the
// action opened is reported by the action itself (the probe meets it, and
// it stays open until answered); other errors are left to the next command.
func (s *Session) settle() error {
	start := time.Now()
	for first := true; ; first = false {
		var v any
		var err error
		if first {
			v, err = s.wd.ExecuteScriptAsync(firstProbeScript, nil)
		} else {
			v, err = s.wd.ExecuteScript(probeScript, nil)
		}
		state, place := probed(v)
		if err != nil || state != "old" {
			s.newDoc = true // another document answers, or soon will
		}
		switch {
		case err != nil:
			if errors.Is(clean(err), ErrDialog) {
				return ErrDialog
			}
			if windowGone(err) {
				return nil // the action closed its window: TakeEvents reports it
			}
			// Otherwise the document is being replaced: scripts fail for a moment.
		case state == "old":
			// No navigation began, the navigation event nor unloading:
			// the action is done.
			s.keepPlace(place)
			return nil
		case state == "new:complete", state == "new:interactive":
			s.keepPlace(place)
			return nil
		case state == "leaving" && time.Since(start) >= downloadLook && s.downloadSince(start):
			// The navigation became a download: the page stays.
			s.newDoc = false
			return nil
		}
		if time.Since(start) >= settleWait {
			return nil
		}
		time.Sleep(settleTick)
	}
}

// probed reads a probe's answer: the state, and where the page is.
func probed(v any) (string, *Place) {
	a, _ := v.([]any)
	if len(a) != 3 {
		return "", nil
	}
	state, _ := a[0].(string)
	title, ok1 := a[1].(string)
	u, ok2 := a[2].(string)
	if !ok1 || !ok2 {
		return state, nil
	}
	return state, &Place{Title: title, URL: u}
}

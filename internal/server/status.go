package server

import (
	"errors"
	"net/http"

	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/internal/flows"
	"github.com/selenium-flow/selenium-flow/internal/refusal"
	"github.com/selenium-flow/selenium-flow/resources"
)

// statusOf is the HTTP status an error answers with on the plain-HTTP
// routes, decided from types, never from sentences: a refusal's Kind
// first (refusal.KindOf), then the typed errors of the packages that do
// not make refusals themselves. A name that does not exist is 404, a
// page not in the state a call needs is 409, any other refusal is the
// caller's mistake (400); a browser that failed is 502, and only what is
// left is the server's (500).
func statusOf(err error) int {
	if kind, ok := refusal.KindOf(err); ok {
		return kind.Status()
	}
	var (
		invalid   *flows.InvalidError
		locator   *browser.LocatorError
		assertion *browser.AssertionError
	)
	switch {
	case errors.As(err, &locator) && locator.Invalid != "":
		return http.StatusBadRequest // a selector that can never match
	case resources.IsNotFound(err), errors.Is(err, files.ErrNotFound), errors.Is(err, flows.ErrNotFound):
		return http.StatusNotFound
	case errors.As(err, &invalid), errors.Is(err, files.ErrInvalidName):
		return http.StatusBadRequest
	case errors.As(err, &locator), errors.As(err, &assertion), errors.Is(err, browser.ErrDialog),
		errors.Is(err, browser.ErrNoDialog), errors.Is(err, browser.ErrTimeout), errors.Is(err, browser.ErrSessionGone),
		errors.Is(err, browser.ErrUnsupported):
		return http.StatusConflict
	}
	return http.StatusInternalServerError
}

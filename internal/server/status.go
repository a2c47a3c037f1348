package server

import (
	"errors"
	"net/http"

	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/internal/flows"
	"github.com/selenium-flow/selenium-flow/internal/refusal"
	"github.com/selenium-flow/selenium-flow/resources"
)

// statusOf is the HTTP status an error answers with on the plain-HTTP
// routes: a name that does not exist is 404, any other refusal is the
// caller's mistake (400), and only what is left is the server's (500).
func statusOf(err error) int {
	var invalid *flows.InvalidError
	switch {
	case resources.IsNotFound(err), errors.Is(err, files.ErrNotFound), errors.Is(err, flows.ErrNotFound):
		return http.StatusNotFound
	case errors.As(err, &invalid), refusal.Is(err):
		return http.StatusBadRequest
	}
	return http.StatusInternalServerError
}

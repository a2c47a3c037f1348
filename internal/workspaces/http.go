package workspaces

import (
	"net/http"
)

// Header names the workspace of an HTTP request, like the query parameter.
const Header = "X-Workspace"

// Query is the query parameter that names the workspace of an HTTP request.
const Query = "workspace"

// FromRequest reads the workspace an HTTP request names. Naming it both
// ways at once, or naming an invalid one, is an error whose text says what
// to send instead.
func FromRequest(r *http.Request) (Named, error) {
	q, inQuery := r.URL.Query()[Query]
	h := r.Header.Values(Header)
	switch {
	case inQuery && len(h) > 0:
		return Named{}, &RequestError{"The request names its workspace twice, in ?workspace= and in the " + Header + " header. Send one of them."}
	case len(q) > 1 || len(h) > 1:
		return Named{}, &RequestError{"The request names more than one workspace. Send ?workspace=NAME or " + Header + ": NAME once."}
	case inQuery:
		return check(q[0], ByQuery)
	case len(h) == 1:
		return check(h[0], ByHeader)
	}
	return Named{Name: Default, How: ByDefault}, nil
}

func check(name string, how How) (Named, error) {
	if !ValidName(name) {
		return Named{}, &RequestError{"The workspace name is not valid. " + NameRule}
	}
	return Named{Name: name, How: how}, nil
}

// RequestError is a request's workspace that cannot be used; it is
// answered 400.
type RequestError struct{ Text string }

func (e *RequestError) Error() string { return e.Text }

// Middleware puts the workspace each request names into its context
// (WithWorkspace) and answers 400 to one it cannot use. It wraps the whole
// HTTP handler after authentication, so /mcp, the read API and every later
// endpoint get the same workspace.
func Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := FromRequest(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		next.ServeHTTP(w, r.WithContext(WithWorkspace(r.Context(), n)))
	})
}

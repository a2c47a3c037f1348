package refusal

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// TestKindOf: the status follows from the kind of the refusal in an
// error's chain, however it is wrapped; an error with none has no kind.
func TestKindOf(t *testing.T) {
	plain := errors.New("the driver crashed")
	for _, tc := range []struct {
		name   string
		err    error
		ok     bool
		status int
	}{
		{"new", New("bad", "do this"), true, http.StatusBadRequest},
		{"of", Of(NotFound, "none", "list them"), true, http.StatusNotFound},
		{"wrapped", fmt.Errorf("step 2: %w", Of(Conflict, "no match", "outline")), true, http.StatusConflict},
		{"with kind", WithKind(Unavailable, plain), true, http.StatusServiceUnavailable},
		{"with kind keeps the chain", fmt.Errorf("x: %w", WithKind(TooLarge, plain)), true, http.StatusRequestEntityTooLarge},
		{"forbidden", Of(Forbidden, "not yours", "use yours"), true, http.StatusForbidden},
		{"unauthorized", Of(Unauthorized, "no token", "send one"), true, http.StatusUnauthorized},
		{"plain", plain, false, 0},
		{"nil", nil, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, ok := KindOf(tc.err)
			assert.Check(t, is.Equal(ok, tc.ok))
			if ok {
				assert.Check(t, is.Equal(k.Status(), tc.status))
			}
		})
	}
	assert.Check(t, errors.Is(WithKind(Conflict, plain), plain))
	assert.Check(t, is.Equal(WithKind(Conflict, nil), nil))
	assert.Check(t, is.Equal(Kind(99).Status(), http.StatusBadRequest))
}

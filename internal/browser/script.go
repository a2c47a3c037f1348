package browser

import (
	"encoding/json"
	"fmt"
)

// ExecuteScript runs script, the body of a JavaScript function, in the
// page with args as its arguments (arguments[0] …) and returns its return
// value as JSON (null when it returns nothing; elements come back as
// WebDriver element references). A returned promise is not awaited. It
// waits, as an action does, for a navigation the script started. Errors
// thrown by the script come back with their message; a script running
// past the session's script timeout (30 s) is stopped with ErrTimeout.
func (s *Session) ExecuteScript(script string, args []any) (json.RawMessage, error) {
	op := "execute script"
	if args == nil {
		args = []any{}
	}
	if err := s.begin(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	s.oracle.scripted.Store(true)
	marked := s.mark()
	v, err := s.execute(script, args)
	if err != nil {
		return nil, s.fail(op, err)
	}
	if marked {
		if err := s.settle(); err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
	}
	if len(v) == 0 {
		v = json.RawMessage("null")
	}
	return v, nil
}

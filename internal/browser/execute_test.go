package browser

import (
	"errors"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

func TestExecuteScript(t *testing.T) {
	s := open(t, "/long")
	tests := []struct {
		name   string
		script string
		args   []any
		want   string
	}{
		{"arguments and a JSON return", "return {sum: arguments[0] + arguments[1], title: document.title, list: arguments[2]};",
			[]any{2, 3, []any{"a", true}}, `{"list":["a",true],"sum":5,"title":"Long article"}`},
		{"no return is null", "document.title = document.title;", nil, "null"},
		{"a string", "return document.querySelector('#last').textContent;", nil, `"The last paragraph ends here."`},
		{"an object argument", "return arguments[0].name.toUpperCase();", []any{map[string]any{"name": "ada"}}, `"ADA"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := s.ExecuteScript(tc.script, tc.args)
			assert.NilError(t, err)
			assert.Check(t, is.Equal(string(v), tc.want))
		})
	}
	t.Run("a thrown error comes back with its message", func(t *testing.T) {
		_, err := s.ExecuteScript("throw new Error('no such order 42');", nil)
		assert.ErrorContains(t, err, "a script in the page failed")
		assert.Check(t, is.Contains(err.Error(), "no such order 42"))
		_, err = s.ExecuteScript("return notDefinedAnywhere + 1;", nil)
		assert.ErrorContains(t, err, "notDefinedAnywhere is not defined")
		_, err = s.ExecuteScript("return {", nil)
		assert.ErrorContains(t, err, "a script in the page failed")
	})
	t.Run("a navigation the script starts is waited for", func(t *testing.T) {
		_, err := s.ExecuteScript("location.href = arguments[0];", []any{page("/login")})
		assert.NilError(t, err)
		title, err := s.Title()
		assert.NilError(t, err)
		assert.Check(t, is.Equal(title, "Sign in · Acme"))
	})
	t.Run("a script cannot set a file input's path", func(t *testing.T) {
		s := open(t, "/upload")
		_, err := s.ExecuteScript("document.querySelector('input[type=file]').value = '/etc/passwd';", nil)
		assert.Assert(t, err != nil)
		assert.Check(t, !strings.Contains(err.Error(), "/etc/passwd"), err.Error())
		var le *LocatorError
		assert.Check(t, !errors.As(err, &le))
	})
}

package server_test

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
)

// TestFileLinksWhereSomethingAnswers: where nothing serves HTTP (stdio, an
// in-process client) a kept file is named by its URI and offered no link;
// with FLOW_PUBLIC_URL its link is absolute and signed; served over HTTP
// without one, it is a signed path on the server.
func TestFileLinksWhereSomethingAnswers(t *testing.T) {
	for _, tc := range []struct {
		name, public string
		overHTTP     bool
		want         string // the link's start; "" for none
	}{
		{"stdio", "", false, ""},
		{"stdio with a public URL", "https://flows.example.com/", false, "https://flows.example.com/files/kept.txt?"},
		{"http", "", true, "/files/kept.txt?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := servertest.New(t, server.Config{PublicURL: tc.public})
			box, err := srv.Sessions().Files(auth.Local)
			assert.NilError(t, err)
			_, err = box.Keep(files.Uploads, "kept.txt", []byte("kept"))
			assert.NilError(t, err)
			var c *servertest.Client
			if tc.overHTTP {
				c = servertest.OverHTTP(t, srv, servertest.Options{})
			} else {
				c = servertest.InProcess(t, srv, servertest.Options{})
			}
			var list sessions.FileList
			servertest.ReadJSON(t, c, "session://files", &list)
			assert.Assert(t, is.Len(list.Files, 1))
			link := list.Files[0].Link
			if tc.want == "" {
				assert.Check(t, is.Equal(link, ""), "a link that points at nothing")
				return
			}
			assert.Check(t, strings.HasPrefix(link, tc.want), link)
			assert.Check(t, strings.Contains(link, "sig="), link)
		})
	}
	_, err := server.New(server.Config{DataDir: t.TempDir(), PublicURL: "flows.example.com"})
	assert.Check(t, is.ErrorContains(err, "FLOW_PUBLIC_URL"))
}

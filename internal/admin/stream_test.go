package admin_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/selenium-flow/selenium-flow/internal/servertest"
)

// events opens the workspace stream as the token's holder and returns a
// function that reads the next event's workspace ids.
func events(t *testing.T, f fixture, token string) func() []string {
	t.Helper()
	ctx, cancel := context.WithCancel(servertest.Context(t))
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", f.base+"/admin/api/workspaces/events", nil)
	assert.NilError(t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	assert.NilError(t, err)
	t.Cleanup(func() { res.Body.Close() })
	assert.Equal(t, res.StatusCode, 200)
	assert.Equal(t, res.Header.Get("Content-Type"), "text/event-stream")
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<20)
	return func() []string {
		t.Helper()
		name := ""
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: ") && name == "workspaces":
				var d struct {
					Workspaces []struct{ ID, State string }
				}
				assert.NilError(t, json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d))
				var ids []string
				for _, w := range d.Workspaces {
					ids = append(ids, w.ID+":"+w.State)
				}
				return ids
			}
		}
		t.Fatalf("the stream ended: %v", sc.Err())
		return nil
	}
}

// TestStream: each page gets its own caller's list at once; a browser
// opened by bob is pushed to the operator's page and to bob's, not to
// carol's, and its end is pushed too.
func TestStream(t *testing.T) {
	servertest.NeedBrowser(t)
	f := newFixture(t)
	alice, bob, carol := events(t, f, aliceToken), events(t, f, bobToken), events(t, f, carolToken)
	assert.DeepEqual(t, alice(), []string{"default@alice:closed", "default@bob:closed"})
	assert.DeepEqual(t, bob(), []string{"default@bob:closed"})
	assert.DeepEqual(t, carol(), []string{"default@carol:closed"})

	c := servertest.ConnectHTTP(t, f.base+"/mcp", servertest.Options{Headers: map[string]string{"Authorization": "Bearer " + bobToken}})
	servertest.CallOK(t, c, "open_session", map[string]any{})
	until := func(next func() []string, want string) {
		t.Helper()
		for i := 0; i < 20; i++ { // changes coalesce; a few events at most
			for _, id := range next() {
				if id == want {
					return
				}
			}
		}
		t.Fatalf("no event with %s", want)
	}
	until(alice, "default@bob:live")
	until(bob, "default@bob:live")

	st, body := f.do(t, aliceToken, "POST", "/admin/api/workspaces/default@bob/end", "")
	assert.Equal(t, st, 200, body)
	until(alice, "default@bob:closed")
	until(bob, "default@bob:closed")

	// carol's page heard the changes as a repeat of her own list only.
	for _, id := range carol() {
		assert.Check(t, !strings.Contains(id, "bob"), "carol saw %s", id)
	}
}

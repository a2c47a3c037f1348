package workspaces_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
	"github.com/selenium-flow/selenium-flow/internal/workspaces"
)

// stores runs test against each store: the embedded one and Redis (a
// redis-server of the test's own).
func stores(t *testing.T, test func(t *testing.T, open func(prefix string, ttl time.Duration) workspaces.Store)) {
	t.Run("embedded", func(t *testing.T) {
		dir := t.TempDir()
		test(t, func(_ string, ttl time.Duration) workspaces.Store {
			st, err := workspaces.Open(t.Context(), workspaces.Config{DataDir: dir, TTL: ttl})
			assert.NilError(t, err)
			t.Cleanup(func() { st.Close() })
			return st
		})
	})
	t.Run("redis", func(t *testing.T) {
		url := testenv.Redis(t)
		test(t, func(prefix string, ttl time.Duration) workspaces.Store {
			st, err := workspaces.Open(t.Context(), workspaces.Config{URL: url, Prefix: prefix, TTL: ttl})
			assert.NilError(t, err)
			t.Cleanup(func() { st.Close() })
			return st
		})
	})
}

func record(owner, name, url string) workspaces.Record {
	return workspaces.Record{Owner: owner, Name: name, State: workspaces.Live, Browser: "chrome", URL: url,
		Window: browser.Window{Width: 390, Height: 844}, LastUsed: time.Now().UTC(),
		SiteData: &browser.SiteData{Cookies: []browser.Cookie{{Name: "sid", Value: "v", Domain: "example.com", Path: "/", HTTPOnly: true}}}}
}

func TestStoreRoundTripAndOwners(t *testing.T) {
	stores(t, func(t *testing.T, open func(string, time.Duration) workspaces.Store) {
		st := open("", 0)
		ctx := t.Context()
		for _, r := range []workspaces.Record{record("alice", "default", "http://a/1"), record("alice", "shop", "http://a/2"), record("bob", "default", "http://b/1")} {
			assert.NilError(t, st.Put(ctx, r))
		}
		for _, c := range []struct {
			owner, name, url string
			found            bool
		}{
			{"alice", "default", "http://a/1", true},
			{"alice", "shop", "http://a/2", true},
			{"bob", "default", "http://b/1", true},
			{"bob", "shop", "", false}, // alice's name is not bob's workspace
			{"carol", "default", "", false},
		} {
			got, ok, err := st.Get(ctx, c.owner, c.name)
			assert.NilError(t, err)
			assert.Check(t, is.Equal(ok, c.found), "%s/%s", c.owner, c.name)
			assert.Check(t, is.Equal(got.URL, c.url), "%s/%s", c.owner, c.name)
			if ok {
				assert.Check(t, is.Equal(got.Window, browser.Window{Width: 390, Height: 844}))
				assert.Check(t, is.Equal(got.SiteData.Cookies[0].Name, "sid"))
			}
		}
		list, err := st.List(ctx, "alice")
		assert.NilError(t, err)
		assert.Check(t, is.Len(list, 2))
		for _, r := range list {
			assert.Check(t, is.Equal(r.Owner, "alice"))
		}
		_, _, err = st.Get(ctx, "../bob", "default")
		assert.Check(t, err != nil, "an owner that is no principal name is refused")
		_, _, err = st.Get(ctx, "alice", "a:b")
		assert.Check(t, err != nil, "a workspace name with ':' is refused")
	})
}

// TestRedisPrefixAndTTL: two servers with their own prefixes share one
// database without seeing each other's workspaces, and every use slides a
// workspace's TTL.
func TestRedisPrefixAndTTL(t *testing.T) {
	url := testenv.Redis(t)
	ctx := t.Context()
	open := func(prefix string, ttl time.Duration) workspaces.Store {
		st, err := workspaces.Open(ctx, workspaces.Config{URL: url, Prefix: prefix, TTL: ttl})
		assert.NilError(t, err)
		t.Cleanup(func() { st.Close() })
		return st
	}
	one, two := open("one:", time.Hour), open("two:", time.Hour)
	assert.NilError(t, one.Put(ctx, record("alice", "default", "http://one/")))
	assert.NilError(t, two.Put(ctx, record("alice", "default", "http://two/")))
	for _, c := range []struct {
		st   workspaces.Store
		want string
	}{{one, "http://one/"}, {two, "http://two/"}} {
		got, ok, err := c.st.Get(ctx, "alice", "default")
		assert.NilError(t, err)
		assert.Assert(t, ok)
		assert.Check(t, is.Equal(got.URL, c.want))
	}

	// A prefix with glob characters lists its own workspaces only.
	star, plain := open("x*:", time.Hour), open("xy:", time.Hour)
	assert.NilError(t, star.Put(ctx, record("alice", "a", "http://star/")))
	assert.NilError(t, plain.Put(ctx, record("alice", "b", "http://plain/")))
	listed, err := star.List(ctx, "alice")
	assert.NilError(t, err)
	assert.Assert(t, is.Len(listed, 1))
	assert.Check(t, is.Equal(listed[0].URL, "http://star/"))

	raw := redis.NewClient(mustParse(t, url))
	defer raw.Close()
	keys, err := raw.Keys(ctx, "*").Result()
	assert.NilError(t, err)
	assert.Check(t, is.DeepEqual(sorted(keys), []string{"one:ws:alice:default", "two:ws:alice:default", "x*:ws:alice:a", "xy:ws:alice:b"}))

	// The TTL: a Put sets it, a Get slides it back up.
	assert.NilError(t, raw.Expire(ctx, "one:ws:alice:default", time.Minute).Err())
	_, _, err = one.Get(ctx, "alice", "default")
	assert.NilError(t, err)
	ttl, err := raw.TTL(ctx, "one:ws:alice:default").Result()
	assert.NilError(t, err)
	assert.Check(t, ttl > 59*time.Minute, "the TTL did not slide: %v", ttl)
	assert.NilError(t, raw.Del(ctx, "one:ws:alice:default").Err())
	_, ok, err := one.Get(ctx, "alice", "default")
	assert.NilError(t, err)
	assert.Check(t, !ok, "an expired workspace is gone")
}

// TestFileTTL: the embedded store drops a workspace unused for longer
// than its TTL, and a Get slides it.
func TestFileTTL(t *testing.T) {
	dir := t.TempDir()
	ctx := t.Context()
	st, err := workspaces.Open(ctx, workspaces.Config{DataDir: dir, TTL: time.Hour})
	assert.NilError(t, err)
	assert.NilError(t, st.Put(ctx, record("alice", "default", "http://a/")))
	path := filepath.Join(dir, "workspaces", "alice", "default.json")
	old := time.Now().Add(-50 * time.Minute)
	assert.NilError(t, os.Chtimes(path, old, old))
	_, ok, err := st.Get(ctx, "alice", "default")
	assert.NilError(t, err)
	assert.Check(t, ok)
	fi, err := os.Stat(path)
	assert.NilError(t, err)
	assert.Check(t, time.Since(fi.ModTime()) < time.Minute, "the Get did not slide the TTL")
	old = time.Now().Add(-2 * time.Hour)
	assert.NilError(t, os.Chtimes(path, old, old))
	_, ok, err = st.Get(ctx, "alice", "default")
	assert.NilError(t, err)
	assert.Check(t, !ok, "a workspace past its TTL is gone")
}

func TestOpenRefusals(t *testing.T) {
	for _, c := range []struct{ url, want string }{
		{"postgres://x/y", "FLOW_STORE must be empty"},
		{"redis://127.0.0.1:1/0", "does not answer"},
	} {
		_, err := workspaces.Open(context.Background(), workspaces.Config{URL: c.url, DataDir: t.TempDir()})
		assert.Check(t, is.ErrorContains(err, c.want), c.url)
		assert.Check(t, err == nil || !strings.Contains(err.Error(), "127.0.0.1"), "the error shows the store's address: %v", err)
	}
}

func mustParse(t *testing.T, url string) *redis.Options {
	o, err := redis.ParseURL(url)
	assert.NilError(t, err)
	return o
}

func sorted(s []string) []string {
	slices.Sort(s)
	return s
}

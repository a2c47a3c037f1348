package workspaces

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/selenium-flow/selenium-flow/internal/auth"
)

// redisStore keeps each workspace as one JSON value at
// PREFIX ws:OWNER:NAME with the TTL, which every Get and Put slides.
// Owners and names hold no ':', so one owner's keys never match another's
// pattern.
type redisStore struct {
	c      *redis.Client
	prefix string
	ttl    time.Duration
}

func openRedis(ctx context.Context, cfg Config) (*redisStore, error) {
	opt, err := redis.ParseURL(cfg.URL)
	if err != nil {
		return nil, errors.New("workspaces: FLOW_STORE is not a valid redis:// URL (redis://host:port/db)")
	}
	c := redis.NewClient(opt)
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := c.Ping(pctx).Err(); err != nil {
		_ = c.Close()
		return nil, errors.New("workspaces: the Redis store named by FLOW_STORE does not answer; start it or fix the address")
	}
	return &redisStore{c: c, prefix: cfg.Prefix, ttl: cfg.TTL}, nil
}

func (s *redisStore) key(owner, name string) (string, error) {
	if !auth.ValidPrincipal(owner) || !ValidName(name) {
		return "", errors.New("workspaces: invalid owner or workspace name")
	}
	return s.prefix + "ws:" + owner + ":" + name, nil
}

func (s *redisStore) Get(ctx context.Context, owner, name string) (Record, bool, error) {
	k, err := s.key(owner, name)
	if err != nil {
		return Record{}, false, err
	}
	data, err := s.c.GetEx(ctx, k, s.ttl).Bytes()
	if errors.Is(err, redis.Nil) {
		return Record{}, false, nil
	}
	if err != nil {
		return Record{}, false, storeErr("read a workspace", errors.New("Redis did not answer"))
	}
	var r Record
	if err := json.Unmarshal(data, &r); err != nil || r.Owner != owner || r.Name != name {
		return Record{}, false, nil
	}
	return r, true, nil
}

func (s *redisStore) Put(ctx context.Context, r Record) error {
	k, err := s.key(r.Owner, r.Name)
	if err != nil {
		return err
	}
	data, err := json.Marshal(r)
	if err != nil {
		return storeErr("write a workspace", err)
	}
	if err := s.c.Set(ctx, k, data, s.ttl).Err(); err != nil {
		return storeErr("write a workspace", errors.New("Redis did not answer"))
	}
	return nil
}

func (s *redisStore) List(ctx context.Context, owner string) ([]Record, error) {
	if !auth.ValidPrincipal(owner) {
		return nil, errors.New("workspaces: invalid owner")
	}
	// The prefix is the operator's and may hold glob characters; the
	// owner cannot (auth.ValidPrincipal).
	pat := globEscape.Replace(s.prefix) + "ws:" + owner + ":*"
	var out []Record
	it := s.c.Scan(ctx, 0, pat, 100).Iterator()
	for it.Next(ctx) {
		name := strings.TrimPrefix(it.Val(), s.prefix+"ws:"+owner+":")
		if !ValidName(name) {
			continue
		}
		if r, ok, err := s.Get(ctx, owner, name); err == nil && ok {
			out = append(out, r)
		}
	}
	if err := it.Err(); err != nil {
		return nil, storeErr("list workspaces", errors.New("Redis did not answer"))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func (s *redisStore) Close() error { return s.c.Close() }

// globEscape quotes what a Redis SCAN MATCH pattern reads as a wildcard.
var globEscape = strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`, "]", `\]`)

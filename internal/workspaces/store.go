package workspaces

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"time"
)

// DefaultTTL is how long a workspace nobody used is kept.
const DefaultTTL = 24 * time.Hour

// DefaultPrefix starts every key the Redis store writes.
const DefaultPrefix = "selenium-flow:"

// Store keeps workspace records. Every method answers for one owner only.
// Implementations are safe for concurrent use, by several processes too.
type Store interface {
	// Get returns owner's workspace name, and false when there is none (or
	// it outlived its TTL). A Get slides the TTL.
	Get(ctx context.Context, owner, name string) (Record, bool, error)
	// Put writes r (keyed by r.Owner and r.Name) and slides its TTL.
	Put(ctx context.Context, r Record) error
	// List returns owner's workspaces, by name.
	List(ctx context.Context, owner string) ([]Record, error)
	// Close releases the store's connections.
	Close() error
	// The transport sessions of the Streamable HTTP transport live in the
	// same store, so every replica serves them (transport.go).
	TransportStore
}

// Config selects and configures a store (Open).
type Config struct {
	// URL is FLOW_STORE: "" for the embedded store under DataDir, or
	// redis://[user:password@]host:port/db.
	URL string
	// DataDir is FLOW_DATA_DIR; the embedded store lives in its
	// workspaces folder.
	DataDir string
	// Prefix starts every Redis key (FLOW_STORE_PREFIX); DefaultPrefix
	// when empty.
	Prefix string
	// TTL is how long an unused workspace is kept (FLOW_WORKSPACE_TTL);
	// DefaultTTL when zero.
	TTL time.Duration
}

// Open returns the store cfg names. A Redis store is checked with a PING,
// so a wrong address fails at start, not at the first call. Errors never
// show the store's address or password.
func Open(ctx context.Context, cfg Config) (Store, error) {
	if cfg.TTL <= 0 {
		cfg.TTL = DefaultTTL
	}
	if cfg.Prefix == "" {
		cfg.Prefix = DefaultPrefix
	}
	if cfg.URL == "" {
		if cfg.DataDir == "" {
			return nil, errors.New("workspaces: the embedded store needs a data folder (FLOW_DATA_DIR)")
		}
		return openFiles(filepath.Join(cfg.DataDir, "workspaces"), cfg.TTL)
	}
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") {
		return nil, errors.New("workspaces: FLOW_STORE must be empty (the embedded store) or redis://host:port/db")
	}
	return openRedis(ctx, cfg)
}

// storeErr wraps a store failure with the next step.
func storeErr(what string, err error) error {
	return fmt.Errorf("workspaces: the workspace store could not %s (%v); try the call again, and if it keeps failing ask the operator to check FLOW_STORE", what, err)
}

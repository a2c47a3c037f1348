package server

import (
	"context"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/workspaces"
)

// openWorkspaces opens the workspace store the configuration names. Its
// errors name the setting to fix, never the store's address.
func openWorkspaces(cfg Config) (workspaces.Store, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return workspaces.Open(ctx, workspaces.Config{URL: cfg.Store, DataDir: cfg.DataDir, Prefix: cfg.StorePrefix, TTL: cfg.WorkspaceTTL})
}

package main

import (
	"fmt"
	"time"
)

// parseWorkspaceTTL reads FLOW_WORKSPACE_TTL: how long a workspace nobody
// used is kept; 0 (the store's default, a day) when empty.
func parseWorkspaceTTL(v string) (time.Duration, error) {
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < time.Minute {
		return 0, fmt.Errorf("FLOW_WORKSPACE_TTL=%q is not a duration of a minute or more; use e.g. 24h or 168h", v)
	}
	return d, nil
}

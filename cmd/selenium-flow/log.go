package main

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
)

// newLogger is the server's structured logger on stderr at the level of
// --log-level / FLOW_LOG_LEVEL. It is also the default logger, so mcp-go's
// and the standard library's lines come out the same way.
func newLogger(level string, stderr io.Writer) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.TrimSpace(level))); err != nil {
		return nil, fmt.Errorf("log_level (FLOW_LOG_LEVEL, --log-level) %q is not a level; use debug, info, warn or error", level)
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: l}))
	slog.SetDefault(logger)
	return logger, nil
}

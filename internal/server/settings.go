package server

import (
	"slices"

	"github.com/selenium-flow/selenium-flow/internal/config"
)

// Settings are the settings the server was started with, each with its
// shown value (secrets masked) and source, for the admin page's Settings
// view; none when the server was built without a configuration (tests).
func (s *Server) Settings() []config.Shown { return slices.Clone(s.cfg.Settings) }

package ui

import (
	"testing"

	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// TestMain fails the package if the end-to-end test's chromedriver or
// Chromium outlives it, and kills them before a timeout (testenv.Main).
func TestMain(m *testing.M) { testenv.Main(m) }

package tools_test

import (
	"testing"

	"github.com/selenium-flow/selenium-flow/internal/servertest"
)

// TestMain: no chromedriver, server or goroutine outlives the tests, and
// none is left behind when the binary times out (see servertest.Main).
func TestMain(m *testing.M) { servertest.Main(m) }

package attack_test

import (
	"testing"

	"github.com/selenium-flow/selenium-flow/internal/servertest"
)

// TestMain: no chromedriver, server or goroutine outlives the tests (see
// servertest.Main).
func TestMain(m *testing.M) { servertest.Main(m) }

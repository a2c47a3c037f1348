package admin_test

import (
	"testing"

	"github.com/selenium-flow/selenium-flow/internal/servertest"
)

func TestMain(m *testing.M) { servertest.Main(m) }

package workspaces_test

import (
	"testing"

	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

package config

import (
	"flag"
	"testing"

	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

var update = flag.Bool("update", false, "rewrite README.md's settings table")

func TestMain(m *testing.M) { testenv.Main(m) }

# selenium-flow — build, serve, generate, test, benchmark.
#   make setup run   install the browser (Debian chromium + chromedriver) if missing, build, serve on stdio
#   make test        generated files and docs fresh, go vet, the UI's vitest, go test -race
#                    (browsers included; with CI=true a missing browser fails instead of skipping),
#                    then make fuzz
#   make fuzz        each fuzz target for FUZZTIME (default 3s); FUZZTIME=1m to hunt
#   make docs        regenerate docs/ (after any tool, resource, skill or document change)
GO       ?= go
BIN      := bin/selenium-flow
ADDR     ?= 127.0.0.1:8765
export FLOW_DATA_DIR ?= $(CURDIR)/.data

.PHONY: setup build run serve-http generate check-generated docs check-docs vet test test-ui fuzz bench bench-peers

setup:
	@command -v chromedriver >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; }
	$(GO) mod download

build:
	$(GO) build -o $(BIN) ./cmd/selenium-flow

run: build
	./$(BIN) serve

serve-http: build
	./$(BIN) serve --http $(ADDR)

generate:
	$(GO) generate ./...

check-generated:
	$(GO) run ./gen -root . -out resources/table_gen.go -check

docs:
	$(GO) generate ./internal/manual

check-docs:
	$(GO) run ./internal/manual/cmd -root . -check

vet:
	$(GO) vet ./...

# TEST_TIMEOUT bounds each package's test binary. Tests derive their waits
# from it (t.Deadline(), less a margin for cleanup; internal/servertest/
# testenv), and a binary about to reach it kills its chromedrivers and
# servers first. 10m is about twice the slowest package (tools, browsers)
# on a loaded 2-core machine: a hung test fails with its own message well
# before anyone would stop waiting, and a slow machine is not a failure.
TEST_TIMEOUT ?= 10m

test: check-generated check-docs vet test-ui
	$(GO) test -race -count=1 -timeout $(TEST_TIMEOUT) ./...
	@$(MAKE) --no-print-directory fuzz

# The MCP App shell's own tests (vitest); the Go side checks dist/ is fresh.
test-ui:
	npm ci --prefix internal/ui --no-audit --no-fund
	npm test --prefix internal/ui

# The fuzz targets of the parsers a caller reaches, as package:Target (add
# a new one here). go test -fuzz takes one target per run, so each runs on
# its own; plain go test already runs every seed under testdata/fuzz. All
# run even when one fails, and a failing input is written to its
# package's testdata/fuzz/<Target>/ for go test -run to replay. A target
# whose fuzz run fails is replayed so: it fails only when an input does.
# On a loaded machine the fuzzing engine itself sometimes gives up
# stopping its workers ("context deadline exceeded") with no input at
# fault, and that is no finding.
FUZZTIME ?= 3s
FUZZ_TARGETS := \
	./resources:FuzzTemplate ./resources:FuzzTableMatch \
	./internal/browser:FuzzParseLocator ./internal/browser:FuzzValidate ./internal/browser:FuzzParseKey \
	./internal/flows:FuzzParse ./internal/flows:FuzzBind ./internal/flows:FuzzDraft \
	./internal/files:FuzzCheckName ./internal/files:FuzzKeep \
	./internal/auth:FuzzLoadTokens ./internal/auth:FuzzAuthenticate \
	./internal/config:FuzzParseFile \
	./internal/secrets:FuzzParseFile ./internal/secrets:FuzzRedact \
	./internal/refusal:FuzzScrub \
	./internal/admin:FuzzParseWorkspaceID

fuzz:
	@failed=; for t in $(FUZZ_TARGETS); do \
	  pkg=$${t%%:*}; name=$${t##*:}; \
	  echo "fuzz $$name ($$pkg, $(FUZZTIME))"; \
	  $(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) $$pkg/ || \
	    $(GO) test -count=1 -run "^$$name\$$" $$pkg/ || failed="$$failed $$pkg:$$name"; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz: failed:$$failed (inputs under each package's testdata/fuzz/)"; exit 1; fi

bench:
	$(GO) test -run '^$$' -bench . -benchmem -count=1 ./...

# The side-by-side benchmark against Playwright MCP and chrome-devtools-mcp
# (internal/peerbench; not part of make test): installs them from npm into
# a temporary folder, drives them and selenium-flow with the same client on
# the fixture site and a Django admin, prints a table and writes JSON to
# $(PEERBENCH_OUT) (default: a file in the temporary folder).
# PEERBENCH_REPEATS sets the interleaved rounds; FLOW_PEERBENCH_DUMP=DIR keeps
# each page description there as a file.
PEERBENCH_REPEATS ?= 10
PEERBENCH_OUT ?=
bench-peers:
	FLOW_PEERBENCH=1 FLOW_PEERBENCH_REPEATS=$(PEERBENCH_REPEATS) FLOW_PEERBENCH_OUT=$(PEERBENCH_OUT) \
	  $(GO) test -count=1 -run '^TestPeers$$' -v -timeout 30m ./internal/peerbench/

# selenium-flow — build, serve, generate, test, benchmark.
#   make setup run   install the browser (Debian chromium + chromedriver) if missing, build, serve on stdio
#   make test        generated files fresh, go vet, go test -race
#   make docs        regenerate docs/ (after any tool, resource, skill or document change)
GO       ?= go
BIN      := bin/selenium-flow
ADDR     ?= 127.0.0.1:8765
export FLOW_DATA_DIR ?= $(CURDIR)/.data

.PHONY: setup build run serve-http generate check-generated docs check-docs vet test bench

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

test: check-generated check-docs vet
	$(GO) test -race -count=1 ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem -count=1 ./...

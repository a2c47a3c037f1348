module github.com/selenium-flow/selenium-flow

go 1.26.0

require (
	github.com/adrg/frontmatter v0.2.0
	github.com/mark3labs/mcp-go v1.2.1
	github.com/redis/go-redis/v9 v9.23.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2
	github.com/tebeka/selenium v0.9.9
	github.com/yuin/goldmark v1.8.7
	gopkg.in/yaml.v2 v2.3.0
	gotest.tools/v3 v3.5.2
)

require (
	github.com/BurntSushi/toml v0.3.1 // indirect
	github.com/blang/semver v3.5.1+incompatible // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/google/jsonschema-go v0.4.2 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/spf13/cast v1.7.1 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/text v0.14.0 // indirect
)

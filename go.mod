module github.com/codecortex/codecortex

go 1.26.0

require (
	deps.dev/util/semver v0.0.0-20260727054525-2946ae4a6141
	github.com/BurntSushi/toml v1.6.0
	github.com/google/go-cmp v0.7.0
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/mod v0.43.0
	pgregory.net/rapid v1.3.0
)

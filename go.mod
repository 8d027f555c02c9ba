module github.com/codecortex/codecortex

go 1.26

require (
	github.com/google/go-cmp v0.7.0
	github.com/scip-code/scip/bindings/go/scip v0.7.1
	google.golang.org/protobuf v1.36.6
	pgregory.net/rapid v1.3.0
)

require github.com/sourcegraph/beaut v0.0.0-20240611013027-627e4c25335a // indirect

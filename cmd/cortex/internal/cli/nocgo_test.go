//go:build !cgo

package cli

const cgoBuild = false

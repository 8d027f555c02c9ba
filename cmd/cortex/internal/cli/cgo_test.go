//go:build cgo

package cli

const cgoBuild = true

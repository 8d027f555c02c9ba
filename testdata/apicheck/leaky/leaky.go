// Package leaky names internal types in every way the API check looks for.
package leaky

import (
	cfg "github.com/codecortex/codecortex/internal/config"
	"github.com/codecortex/codecortex/internal/contain"
)

type Leaky struct {
	hidden *contain.Root // unexported: fine
	Root   *contain.Root
}

func Open(dir string) (*contain.Root, error) { return nil, nil }

// Config has an exported receiver.
func (l *Leaky) Config() cfg.Config { return cfg.Config{} }

func (l *leaky) Fine() cfg.Config { return cfg.Config{} }

type Alias = contain.Root

var Default = cfg.Default()

var fine = cfg.Default()

type Embeds struct {
	*contain.Root
}

type Iface interface{ Root() *contain.Root }

type leaky struct{}

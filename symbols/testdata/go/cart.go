// Package shop keeps carts.
package shop

import (
	_ "embed"
	"errors"
	stdfmt "fmt"
	. "strings"
)

import (
	"fmt"
	"sync"
)

// ErrEmpty is returned for an empty cart.
var ErrEmpty = errors.New("shop: empty cart")

// The limits.
const (
	MaxItems = 100 // per cart
	minItems = 1

	// iota-continued
	Small, Large = iota, iota + 10
)

var counter int

// A Cart holds items.
// It is safe for concurrent use.
type Cart struct {
	mu    sync.Mutex
	Items []Item `json:"items"`
	*Owner
	stdfmt.Stringer
}

type (
	// Item is one line.
	Item struct{ SKU string }
	ID   int
	// Alias names the same type.
	Alias = ID
)

// Store finds carts.
type Store interface {
	Find(id ID) (*Cart, error)
	stdfmt.Stringer
}

type List[T any] struct{ items []T }

// Push appends.
func (l *List[T]) Push(v T) { l.items = append(l.items, v) }

// Add puts an item in the cart.
func (c *Cart) Add(item Item) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.Items) >= MaxItems {
		return stdfmt.Errorf("full: %s", ToUpper(item.SKU))
	}
	c.Items = append(c.Items, item)
	return nil
}

func (Cart) total() int { return 0 }

// New returns an empty cart; the name is Unicode-free but the comment is: café.
func New[T any](owner *Owner, opts ...func(*Cart)) (*Cart, error) {
	var local = 3
	_ = local
	return &Cart{Owner: owner}, nil
}

func init() { counter++ }

type Owner struct{ Name string }

var (
	// defaultCart is shared.
	defaultCart  = &Cart{}
	hits, misses int
	_            = fmt
)

type Map[K comparable, V any] map[K]V

func (m Map[K, V]) Get(k K) V { return m[k] }

type Handler func(c *Cart) error

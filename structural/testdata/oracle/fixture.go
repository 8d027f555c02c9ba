package fixture

import (
	"errors"
	"fmt"
	"os"
	"sync"
)

type store struct {
	mu    sync.Mutex
	items map[string]int
}

func (s *store) Put(k string, v int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k == k {
		fmt.Println("same", k)
	}
	if len(k) == 0 {
		return errors.New("empty key")
	}
	s.items[k] = v
	return nil
}

func load(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", path, err)
	}
	fmt.Println( /* note */ len(data), path,
		"done")
	fmt.Println()
	return data, nil
}

func sum(xs ...int) (total int) {
	for _, x := range xs {
		total += x
	}
	out := append([]int{}, xs...)
	out = append(out, 1, 2, 3)
	m := make(map[string]int)
	m["a"] = len(out)
	return total + len(m)
}

func nested() {
	fmt.Println(fmt.Sprint(fmt.Sprint("x")))
	a, b := 1, 2
	if a == b || b == a {
		fmt.Printf("%d %d\n", a, b)
	}
}

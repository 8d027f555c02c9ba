package stmt

import (
	"context"
	"errors"
	"fmt"
	"os"
)

func run(ctx context.Context, pkg *api) (int, error) {
	fmt.Println("héllo")
	fmt.Println("a", "b")
	fmt.Printf("%d\n", 1)
	x := pkg.Func("π", 2)
	y := pkg.Func(x)
	f, err := os.Open("ünï.txt")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	go worker(ctx, x)
	go func() {}()
	if errors.Is(err, context.Canceled) {
		return x, nil
	}
	fmt.Sprint(y)
	return y, nil
}

type api struct {
	mu  sync.Mutex
	buf *strings.Builder
}

func (a *api) Func(s ...any) int { a.buf = new(strings.Builder); return len(s) }

package shapes

import "io"

// Sizer is embedded by SizedReader and declared again by Measured: both
// are interfaces whose method sets hold Sizer's.
type Sizer interface{ Size() int }

// SizedReader embeds Sizer.
type SizedReader interface {
	Sizer
	io.Reader
}

// Measured declares Sizer's method itself.
type Measured interface {
	Size() int
	Unit() string
}

// File implements Sizer and SizedReader.
type File struct{}

func (File) Size() int                  { return 0 }
func (File) Read(p []byte) (int, error) { return len(p), nil }

// Meter implements Sizer and Measured through its pointer.
type Meter struct{}

func (*Meter) Size() int    { return 1 }
func (*Meter) Unit() string { return "m" }

// Wrapped has File's methods by embedding.
type Wrapped struct{ File }

func measure() int {
	var s Sizer = File{}
	var m Measured = &Meter{}
	var r SizedReader = File{}
	return s.Size() + File{}.Size() + m.Size() + r.Size() + Wrapped{}.Size()
}

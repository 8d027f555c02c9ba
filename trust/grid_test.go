package trust

import "math"

// confidenceGrid is the dense grid the exhaustive proofs enumerate: every
// thousandth of [0, 1], plus 0 and 1's float neighbours and the smallest
// steps around the band midpoint.
func confidenceGrid() []float64 {
	g := []float64{
		0, math.Nextafter(0, 1), math.SmallestNonzeroFloat64 * 2, 1e-300, 1e-16,
		math.Nextafter(1, 0), math.Nextafter(math.Nextafter(1, 0), 0), 1,
		math.Nextafter(0.5, 0), math.Nextafter(0.5, 1),
	}
	for i := 0; i <= 1000; i++ {
		g = append(g, float64(i)/1000)
	}
	return g
}

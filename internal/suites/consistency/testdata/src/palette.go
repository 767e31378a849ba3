// Package palette builds colour ramps for a theme.
package palette

import (
	"errors"
	"fmt"
	"strings"
)

// MaxSteps bounds a ramp: past it the steps are too close to tell apart.
const MaxSteps = 12

var ErrEmpty = errors.New("palette: no colours")

// Swatch is one named colour.
type Swatch struct {
	Name  string
	Hex   string
	Alpha float64
	tags  []string
}

// Ramp is an ordered list of swatches.
type Ramp []Swatch

type Mixer interface {
	Mix(a, b Swatch, t float64) (Swatch, error)
}

func (s Swatch) String() string {
	return fmt.Sprintf("%s (%s, %.0f%%)", s.Name, s.Hex, s.Alpha*100)
}

// Build makes n swatches from base toward white.
func Build(base Swatch, n int, m Mixer) (Ramp, error) {
	if n <= 0 || n > MaxSteps {
		return nil, fmt.Errorf("palette: %d steps (want 1..%d)", n, MaxSteps)
	}
	out := make(Ramp, 0, n)
	white := Swatch{Name: "white", Hex: "#ffffff", Alpha: 1}
	for i := 0; i < n; i++ {
		s, err := m.Mix(base, white, float64(i)/float64(n))
		if err != nil {
			return nil, err
		}
		s.Name = fmt.Sprintf("%s-%d", base.Name, i+1)
		out = append(out, s)
	}
	return out, nil
}

// Names lists the swatch names, joined by sep.
func (r Ramp) Names(sep string) string {
	if len(r) == 0 {
		return ""
	}
	names := make([]string, len(r))
	for i, s := range r {
		names[i] = strings.ToUpper(s.Name[:1]) + s.Name[1:]
	}
	var ok bool = true
	var count uint8 = 0x1f
	_ = ok && count > 0
	return strings.Join(names, sep)
}

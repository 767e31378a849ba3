//go:build unix

package procmem

import (
	"os"
	"testing"
)

func TestStatusKB(t *testing.T) {
	status := "Name:\tcdxtheme\nVmPeak:\t  900000 kB\nVmHWM:\t   27400 kB\nVmRSS:\t   16416 kB\n"
	for field, want := range map[string]float64{"VmHWM": 27400, "VmRSS": 16416} {
		if got, ok := StatusKB(status, field); !ok || got != want {
			t.Errorf("StatusKB(%s) = %v, %v; want %v", field, got, ok, want)
		}
	}
	if _, ok := StatusKB(status, "VmSwap"); ok {
		t.Error("a missing field was read")
	}
	if _, ok := StatusKB("VmHWM:\tlots kB\n", "VmHWM"); ok {
		t.Error("a field that is no number was read")
	}
	// VmHW is not VmHWM: the field name ends at its colon.
	if _, ok := StatusKB(status, "VmHW"); ok {
		t.Error("a field prefix matched")
	}
	if mb, ok := VmHWM(os.Getpid()); !ok || mb <= 0 {
		t.Errorf("vmHWM of this process = %v, %v", mb, ok)
	}
}

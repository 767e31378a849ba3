package syncbuf

import "testing"

// A flood's stderr keeps its first bytes and still counts the rest, so a
// test can check both what the agent said first and how much it wrote.
func TestKeepBoundsWhatIsKeptNotWhatIsCounted(t *testing.T) {
	b := Buffer{Keep: 4}
	for _, s := range []string{"ab", "cdef", "gh"} {
		if n, err := b.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v: a writer must take every byte", s, n, err)
		}
	}
	if got := b.String(); got != "abcd" {
		t.Errorf("kept %q, want the first 4 bytes", got)
	}
	if got := b.Len(); got != 8 {
		t.Errorf("Len = %d, want 8 bytes written", got)
	}
	var all Buffer
	all.Write([]byte("ab"))
	all.Write([]byte("cdef"))
	if got := all.String(); got != "abcdef" || all.Len() != 6 {
		t.Errorf("without Keep: %q (%d), want everything", got, all.Len())
	}
}

package plist

import (
	"bytes"
	"encoding/binary"
	"math/rand"
	"os"
	"strings"
	"testing"
)

// bplistObjects lays out a binary property list with 4-byte offsets and
// 1-byte references (so at most 256 objects). core/themeimport's hostile
// import tests keep their own copy for the reference bomb they import.
func bplistObjects(objects [][]byte, top int) []byte {
	var b bytes.Buffer
	b.WriteString("bplist00")
	offs := make([]int, len(objects))
	for i, o := range objects {
		offs[i] = b.Len()
		b.Write(o)
	}
	table := b.Len()
	for _, o := range offs {
		binary.Write(&b, binary.BigEndian, uint32(o))
	}
	tr := make([]byte, 32)
	tr[6], tr[7] = 4, 1
	binary.BigEndian.PutUint64(tr[8:], uint64(len(objects)))
	binary.BigEndian.PutUint64(tr[16:], uint64(top))
	binary.BigEndian.PutUint64(tr[24:], uint64(table))
	b.Write(tr)
	return b.Bytes()
}

func TestBinaryPlistIsBounded(t *testing.T) {
	// An array that contains itself.
	if _, err := ParseBinary(bplistObjects([][]byte{{0xA1, 0}}, 0)); err == nil || !strings.Contains(err.Error(), "contains itself") {
		t.Errorf("self-reference: %v", err)
	}
	// Thirty arrays each holding the next twice: 2^30 values by reference.
	var objs [][]byte
	for i := 0; i < 30; i++ {
		objs = append(objs, []byte{0xA2, byte(i + 1), byte(i + 1)})
	}
	objs = append(objs, []byte{0x10, 1})
	if _, err := ParseBinary(bplistObjects(objs, 0)); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("reference bomb: %v", err)
	}
	// 2,000 references to a 4 KB string: few values, 8 MB of text.
	refs := append([]byte{0xAF, 0x11, 0x07, 0xd0}, bytes.Repeat([]byte{1}, 2000)...)
	text := append([]byte{0x5F, 0x11, 0x10, 0x00}, strings.Repeat("x", 4096)...)
	if _, err := ParseBinary(bplistObjects([][]byte{refs, text}, 0)); err == nil || !strings.Contains(err.Error(), "expand to more than 4 MB") {
		t.Errorf("string bomb: %v", err)
	}
	// A string longer than the file, a reference to no object, a trailer
	// pointing outside.
	for name, f := range map[string][]byte{
		"long string":  bplistObjects([][]byte{{0x5F, 0x13, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}}, 0),
		"bad ref":      bplistObjects([][]byte{{0xA1, 9}}, 0),
		"bad top":      bplistObjects([][]byte{{0x09}}, 5),
		"short":        []byte("bplist00\x00"),
		"ascii string": bplistObjects([][]byte{{0x53, 'a', 'b'}}, 0),
	} {
		if _, err := ParseBinary(f); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// Random damage to a real file never panics.
	good, err := os.ReadFile("../theme/testdata/oracle/iterm2-color-schemes/schemes/Mesila One.itermcolors")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseBinary(good); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 2000; i++ {
		bad := bytes.Clone(good)
		for j := 0; j < 1+r.Intn(8); j++ {
			bad[8+r.Intn(len(bad)-8)] = byte(r.Intn(256))
		}
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("panic on damaged file %d: %v", i, p)
				}
			}()
			ParseBinary(bad)
		}()
	}
}

package plist

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
)

// Binary property lists ("bplist00"): a few published .itermcolors are in
// this form, and iTerm2 reads them. The reader is strict and bounded: a
// hostile file is refused rather than followed. Every offset and length
// is checked against the file; nesting is limited as in the XML reader;
// an object that contains itself is refused. Objects are shared by
// reference, and the tree built copies each one per reference, so what
// is built is bounded, not just what is read: at most MaxNodes values
// and MaxTree bytes (nodeCost per value plus its text), charged before
// anything is allocated. Without that a 400 KB file (one long string,
// 100,000 references to it) expanded to tens of GB. Layout: Apple's
// CFBinaryPList.c (header, objects, offset table, 32-byte trailer).

// nodeCost: a Node (96 bytes), its slot in the parent, growth.
const nodeCost = 128

type bplist struct {
	data      []byte
	offsets   []uint64
	refSize   int
	nodes     int
	tree      uint64 // bytes charged for the tree built so far
	onPath    []bool // objects being built: reaching one again is a cycle
	objectEnd uint64 // the offset table's start: objects lie before it
}

// charge books n more bytes of tree, or refuses the file.
func (p *bplist) charge(n uint64) error {
	if n > MaxTree-p.tree {
		return fmt.Errorf("binary property list: its references expand to more than %d MB", MaxTree>>20)
	}
	p.tree += n
	return nil
}

// chargeNodes books n more values, before their references are read.
func (p *bplist) chargeNodes(n uint64) error {
	if n > uint64(MaxNodes-p.nodes) {
		return fmt.Errorf("binary property list: more than %d values", MaxNodes)
	}
	p.nodes += int(n)
	return p.charge(n * nodeCost)
}

// IsBinary reports whether data is a binary property list (by its header).
func IsBinary(data []byte) bool { return len(data) >= 8 && string(data[:8]) == "bplist00" }

// ParseBinary reads a binary property list into the same tree ParseXML
// gives (Line is always 0).
func ParseBinary(data []byte) (*Node, error) {
	if !IsBinary(data) || len(data) < 8+32 {
		return nil, errors.New("not a binary property list (too short)")
	}
	tr := data[len(data)-32:]
	offSize, refSize := int(tr[6]), int(tr[7])
	numObjects := binary.BigEndian.Uint64(tr[8:16])
	top := binary.BigEndian.Uint64(tr[16:24])
	tableOff := binary.BigEndian.Uint64(tr[24:32])
	if offSize < 1 || offSize > 8 || refSize < 1 || refSize > 8 {
		return nil, fmt.Errorf("binary property list: bad trailer (offset size %d, reference size %d)", offSize, refSize)
	}
	trailerStart := uint64(len(data) - 32)
	if numObjects == 0 || numObjects > uint64(len(data)) || top >= numObjects ||
		tableOff < 8 || tableOff > trailerStart || (trailerStart-tableOff)/uint64(offSize) < numObjects {
		return nil, errors.New("binary property list: the trailer does not fit the file")
	}
	p := &bplist{data: data, refSize: refSize, objectEnd: tableOff, offsets: make([]uint64, numObjects), onPath: make([]bool, numObjects)}
	for i := range p.offsets {
		at := tableOff + uint64(i*offSize)
		o := readUint(data[at : at+uint64(offSize)])
		if o < 8 || o >= tableOff {
			return nil, fmt.Errorf("binary property list: object %d lies outside the object area", i)
		}
		p.offsets[i] = o
	}
	if err := p.chargeNodes(1); err != nil {
		return nil, err
	}
	return p.object(top, 0)
}

func readUint(b []byte) uint64 {
	var v uint64
	for _, x := range b {
		v = v<<8 | uint64(x)
	}
	return v
}

// bytes returns n bytes at off, within the object area.
func (p *bplist) bytes(off, n uint64) ([]byte, error) {
	if off > p.objectEnd || n > p.objectEnd-off {
		return nil, errors.New("binary property list: an object runs past the object area")
	}
	return p.data[off : off+n], nil
}

// length reads an object's count: the marker's low nibble, or, when that
// is 0xF, the integer object that follows.
func (p *bplist) length(marker byte, off uint64) (n, start uint64, err error) {
	if marker&0x0f != 0x0f {
		return uint64(marker & 0x0f), off + 1, nil
	}
	b, err := p.bytes(off+1, 1)
	if err != nil {
		return 0, 0, err
	}
	if b[0]&0xf0 != 0x10 {
		return 0, 0, errors.New("binary property list: bad length marker")
	}
	size := uint64(1) << (b[0] & 0x0f)
	if size > 8 {
		return 0, 0, errors.New("binary property list: length too large")
	}
	v, err := p.bytes(off+2, size)
	if err != nil {
		return 0, 0, err
	}
	n = readUint(v)
	if n > uint64(len(p.data)) {
		return 0, 0, errors.New("binary property list: length larger than the file")
	}
	return n, off + 2 + size, nil
}

func (p *bplist) refs(off, n uint64) ([]uint64, error) {
	b, err := p.bytes(off, n*uint64(p.refSize))
	if err != nil {
		return nil, err
	}
	out := make([]uint64, n)
	for i := range out {
		out[i] = readUint(b[i*p.refSize : (i+1)*p.refSize])
		if out[i] >= uint64(len(p.offsets)) {
			return nil, fmt.Errorf("binary property list: reference %d to no object", out[i])
		}
	}
	return out, nil
}

func (p *bplist) object(ref uint64, depth int) (*Node, error) {
	if depth > MaxDepth {
		return nil, errors.New("binary property list: nested too deeply")
	}
	if p.onPath[ref] {
		return nil, fmt.Errorf("binary property list: object %d contains itself", ref)
	}
	off := p.offsets[ref]
	mb, err := p.bytes(off, 1)
	if err != nil {
		return nil, err
	}
	m := mb[0]
	switch m >> 4 {
	case 0x0:
		switch m {
		case 0x08:
			return &Node{Kind: "false"}, nil
		case 0x09:
			return &Node{Kind: "true"}, nil
		}
		return nil, fmt.Errorf("binary property list: unsupported value 0x%02x", m)
	case 0x1:
		size := uint64(1) << (m & 0x0f)
		if size > 8 {
			return nil, errors.New("binary property list: integer too large")
		}
		b, err := p.bytes(off+1, size)
		if err != nil {
			return nil, err
		}
		v := readUint(b)
		if size == 8 {
			return &Node{Kind: "integer", Text: strconv.FormatInt(int64(v), 10)}, nil
		}
		return &Node{Kind: "integer", Text: strconv.FormatUint(v, 10)}, nil
	case 0x2:
		size := uint64(1) << (m & 0x0f)
		b, err := p.bytes(off+1, size)
		if err != nil {
			return nil, err
		}
		var f float64
		switch size {
		case 4:
			f = float64(math.Float32frombits(binary.BigEndian.Uint32(b)))
		case 8:
			f = math.Float64frombits(binary.BigEndian.Uint64(b))
		default:
			return nil, fmt.Errorf("binary property list: a %d-byte real", size)
		}
		return &Node{Kind: "real", Text: strconv.FormatFloat(f, 'g', -1, 64)}, nil
	case 0x3:
		if _, err := p.bytes(off+1, 8); err != nil {
			return nil, err
		}
		return &Node{Kind: "date"}, nil
	case 0x4, 0x5, 0x6:
		n, start, err := p.length(m, off)
		if err != nil {
			return nil, err
		}
		width := uint64(1)
		if m>>4 == 0x6 {
			width = 2
		}
		if n > p.objectEnd/width {
			return nil, errors.New("binary property list: a string runs past the object area")
		}
		b, err := p.bytes(start, n*width)
		if err != nil {
			return nil, err
		}
		if m>>4 != 0x4 {
			// The text built: a UTF-16 unit is up to 3 bytes of UTF-8.
			if err := p.charge(n * (2*width - 1)); err != nil {
				return nil, err
			}
		}
		switch m >> 4 {
		case 0x4:
			return &Node{Kind: "data"}, nil
		case 0x5:
			return &Node{Kind: "string", Text: string(b)}, nil
		}
		u := make([]uint16, n)
		for i := range u {
			u[i] = binary.BigEndian.Uint16(b[2*i:])
		}
		return &Node{Kind: "string", Text: string(utf16.Decode(u))}, nil
	case 0x8:
		return &Node{Kind: "uid"}, nil
	case 0xA, 0xC:
		n, start, err := p.length(m, off)
		if err != nil {
			return nil, err
		}
		if err := p.chargeNodes(n); err != nil {
			return nil, err
		}
		refs, err := p.refs(start, n)
		if err != nil {
			return nil, err
		}
		v := &Node{Kind: "array"}
		p.onPath[ref] = true
		defer func() { p.onPath[ref] = false }()
		for _, r := range refs {
			child, err := p.object(r, depth+1)
			if err != nil {
				return nil, err
			}
			v.Array = append(v.Array, child)
		}
		return v, nil
	case 0xD:
		n, start, err := p.length(m, off)
		if err != nil {
			return nil, err
		}
		if err := p.chargeNodes(2 * n); err != nil { // n ≤ the file's length: no overflow
			return nil, err
		}
		refs, err := p.refs(start, 2*n)
		if err != nil {
			return nil, err
		}
		v := &Node{Kind: "dict", Dict: map[string]*Node{}}
		p.onPath[ref] = true
		defer func() { p.onPath[ref] = false }()
		for i := uint64(0); i < n; i++ {
			k, err := p.object(refs[i], depth+1)
			if err != nil {
				return nil, err
			}
			if k.Kind != "string" {
				return nil, errors.New("binary property list: a dictionary key that is not a string")
			}
			val, err := p.object(refs[n+i], depth+1)
			if err != nil {
				return nil, err
			}
			if _, dup := v.Dict[k.Text]; !dup {
				v.Keys = append(v.Keys, k.Text)
			}
			v.Dict[k.Text] = val
		}
		return v, nil
	}
	return nil, fmt.Errorf("binary property list: unknown object type 0x%02x", m)
}

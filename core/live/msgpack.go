package live

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// The little of MessagePack that one Neovim RPC request needs: a request
// [0, id, method, [string]] out, and any value back, bounded (the socket
// is another process's: depth, lengths and the bytes read are capped).

const (
	maxDepth = 8
	maxItems = 4096
	maxBytes = 1 << 20
)

func appendStr(b []byte, s string) []byte {
	switch n := len(s); {
	case n < 32:
		b = append(b, 0xa0|byte(n))
	case n < 1<<8:
		b = append(b, 0xd9, byte(n))
	case n < 1<<16:
		b = append(b, 0xda, byte(n>>8), byte(n))
	default:
		b = append(b, 0xdb)
		b = binary.BigEndian.AppendUint32(b, uint32(n))
	}
	return append(b, s...)
}

// request encodes [0, id, method, [args...]] with string arguments.
func request(id uint32, method string, args ...string) []byte {
	b := []byte{0x94, 0x00, 0xce}
	b = binary.BigEndian.AppendUint32(b, id)
	b = appendStr(b, method)
	b = append(b, 0x90|byte(len(args)))
	for _, a := range args {
		b = appendStr(b, a)
	}
	return b
}

var errMsgpack = errors.New("malformed MessagePack")

// decode reads one value: nil, bool, int64, uint64, float64, string (str
// and bin), []any, map[string]any (other keys are dropped); ext values
// are skipped as nil.
func decode(r *bufio.Reader, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("%w: nested too deep", errMsgpack)
	}
	c, err := r.ReadByte()
	if err != nil {
		return nil, err
	}
	n := func(size int) (uint64, error) {
		var buf [8]byte
		if _, err := io.ReadFull(r, buf[:size]); err != nil {
			return 0, err
		}
		var v uint64
		for _, x := range buf[:size] {
			v = v<<8 | uint64(x)
		}
		return v, nil
	}
	bytesOf := func(l uint64) (string, error) {
		if l > maxBytes {
			return "", fmt.Errorf("%w: %d-byte string", errMsgpack, l)
		}
		buf := make([]byte, l)
		_, err := io.ReadFull(r, buf)
		return string(buf), err
	}
	array := func(l uint64) (any, error) {
		if l > maxItems {
			return nil, fmt.Errorf("%w: %d items", errMsgpack, l)
		}
		out := make([]any, 0, l)
		for range l {
			v, err := decode(r, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	object := func(l uint64) (any, error) {
		if l > maxItems {
			return nil, fmt.Errorf("%w: %d entries", errMsgpack, l)
		}
		out := map[string]any{}
		for range l {
			k, err := decode(r, depth+1)
			if err != nil {
				return nil, err
			}
			v, err := decode(r, depth+1)
			if err != nil {
				return nil, err
			}
			if ks, ok := k.(string); ok {
				out[ks] = v
			}
		}
		return out, nil
	}
	skip := func(l uint64) (any, error) {
		if l > maxBytes {
			return nil, fmt.Errorf("%w: %d-byte ext", errMsgpack, l)
		}
		_, err := r.Discard(int(l) + 1) // the type byte, then the data
		return nil, err
	}
	switch {
	case c <= 0x7f:
		return int64(c), nil
	case c >= 0xe0:
		return int64(int8(c)), nil
	case c&0xe0 == 0xa0:
		return bytesOf(uint64(c & 0x1f))
	case c&0xf0 == 0x90:
		return array(uint64(c & 0x0f))
	case c&0xf0 == 0x80:
		return object(uint64(c & 0x0f))
	}
	switch c {
	case 0xc0:
		return nil, nil
	case 0xc2:
		return false, nil
	case 0xc3:
		return true, nil
	case 0xcc, 0xcd, 0xce, 0xcf:
		v, err := n(1 << (c - 0xcc))
		return v, err
	case 0xd0, 0xd1, 0xd2, 0xd3:
		size := 1 << (c - 0xd0)
		v, err := n(size)
		shift := 64 - 8*size
		return int64(v<<shift) >> shift, err
	case 0xca:
		v, err := n(4)
		return float64(math.Float32frombits(uint32(v))), err
	case 0xcb:
		v, err := n(8)
		return math.Float64frombits(v), err
	case 0xd9, 0xda, 0xdb, 0xc4, 0xc5, 0xc6:
		size := map[byte]int{0xd9: 1, 0xda: 2, 0xdb: 4, 0xc4: 1, 0xc5: 2, 0xc6: 4}[c]
		l, err := n(size)
		if err != nil {
			return nil, err
		}
		return bytesOf(l)
	case 0xdc, 0xdd:
		l, err := n(2 << (c - 0xdc))
		if err != nil {
			return nil, err
		}
		return array(l)
	case 0xde, 0xdf:
		l, err := n(2 << (c - 0xde))
		if err != nil {
			return nil, err
		}
		return object(l)
	case 0xd4, 0xd5, 0xd6, 0xd7, 0xd8:
		return skip(1 << (c - 0xd4))
	case 0xc7, 0xc8, 0xc9:
		l, err := n(1 << (c - 0xc7))
		if err != nil {
			return nil, err
		}
		return skip(l)
	}
	return nil, fmt.Errorf("%w: byte 0x%02x", errMsgpack, c)
}

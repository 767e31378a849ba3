package faults

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
)

// FillFile writes head, then block again and again until the file holds at
// least size bytes, and returns how many blocks it wrote. Both must end with
// a newline, so the file is whole lines (a real, not sparse, file: the
// point is to make readers go through the bytes). Writes go out in large
// buffered chunks so a gigabyte takes seconds.
func FillFile(path string, head, block []byte, size int64) (blocks int64, err error) {
	if len(block) == 0 || block[len(block)-1] != '\n' || (len(head) > 0 && head[len(head)-1] != '\n') {
		return 0, fmt.Errorf("fill %s: head and block must be whole lines", path)
	}
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	const chunk = 8 << 20
	bw := bufio.NewWriterSize(f, chunk)
	if _, err := bw.Write(head); err != nil {
		return 0, err
	}
	total := int64(len(head))
	// Whole blocks per chunk, written with one call each.
	per := max(1, chunk/len(block))
	big := bytes.Repeat(block, per)
	for total < size {
		left := (size - total + int64(len(block)) - 1) / int64(len(block))
		b := big
		if left < int64(per) {
			b = big[:left*int64(len(block))]
		}
		if _, err := bw.Write(b); err != nil {
			return blocks, fmt.Errorf("fill %s: %w", path, err)
		}
		n := int64(len(b) / len(block))
		blocks += n
		total += int64(len(b))
	}
	if err := bw.Flush(); err != nil {
		return blocks, fmt.Errorf("fill %s: %w", path, err)
	}
	return blocks, nil
}

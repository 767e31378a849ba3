package themeimport

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The worst inputs of each import format (issue #36): every one ends,
// quickly, in a clear error or a correct theme, and what one import
// allocates stays under its format's documented bound (docs/SECURITY.md,
// "Importing a hostile file"). The 4 MB ones are built here, the same
// bytes every run; the small ones are files in testdata/hostile.

// bplistObjects lays out a binary property list with 4-byte offsets and
// 1-byte references (so at most 256 objects).
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

// bplistArray is an array of n references to one object.
func bplistArray(n int, ref byte) []byte {
	o := []byte{0xAF, 0x12, byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}
	return append(o, bytes.Repeat([]byte{ref}, n)...)
}

// bplistString is an ASCII string of n bytes.
func bplistString(s string) []byte {
	n := len(s)
	return append([]byte{0x5F, 0x12, byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}, s...)
}

// bplistRefBomb is the kind of 400 KB file that got the app killed: a
// 300 KB string and 90,000 references to it (27 GB once each is copied).
func bplistRefBomb() []byte {
	return bplistObjects([][]byte{
		{0xD1, 1, 2}, bplistString("Ansi 0 Color"),
		bplistArray(90000, 3), bplistString(strings.Repeat("x", 300<<10)),
	}, 0)
}

// hugeJSON is a VS Code theme of about size bytes, as a generator might
// write one: token rules of 41 scopes each (~3,000 in 4 MB), a token per
// line. With bad,
// the last rule's colour is not a colour, and the error must name its
// line: the line finder walks the whole file (it counted every line from
// the start for every value: 64 s for 3.9 MB).
func hugeJSON(size int, bad bool) (data []byte, badLine int) {
	var b strings.Builder
	b.WriteString("{\n  \"name\": \"Huge\",\n  \"type\": \"dark\",\n  \"colors\": {\n    \"editor.background\": \"#101418\",\n    \"editor.foreground\": \"#d8dee9\"\n  },\n  \"tokenColors\": [\n")
	for i := 0; b.Len() < size-1400; i++ {
		b.WriteString("    {\n      \"scope\": [\n")
		for j := 0; j < 40; j++ {
			fmt.Fprintf(&b, "        \"source.s%d.k%d\",\n", i, j)
		}
		fmt.Fprintf(&b, "        \"source.s%d\"\n      ],\n      \"settings\": {\n        \"foreground\": \"#%06x\"\n      }\n    },\n", i, i)
	}
	badLine = strings.Count(b.String(), "\n") + 1
	colour := "#7a8288"
	if bad {
		colour = "#7a828g"
	}
	fmt.Fprintf(&b, "    {\"scope\": \"comment\", \"settings\": {\"foreground\": \"%s\"}}\n  ]\n}\n", colour)
	return []byte(b.String()), badLine
}

// hugeTOML is an Alacritty theme of about 4 MB: its colours, then one
// key after another (go-toml looks each new key up among all before it).
func hugeTOML() []byte {
	var b strings.Builder
	b.WriteString("[colors.primary]\nbackground = \"#101418\"\nforeground = \"#d8dee9\"\n\n[colors.extra]\n")
	for i := 0; b.Len() < MaxImportSize-100; i++ {
		fmt.Fprintf(&b, "k%07d = \"#%06x\"\n", i, i&0xffffff)
	}
	return []byte(b.String())
}

// filled repeats unit after head until the file is nearly the import cap.
func filled(head, unit, tail string) []byte { return filledTo(MaxImportSize, head, unit, tail) }

// filledTo repeats unit after head until the file is nearly size bytes.
func filledTo(size int, head, unit, tail string) []byte {
	n := (size - len(head) - len(tail) - 1) / len(unit)
	return []byte(head + strings.Repeat(unit, n) + tail)
}

type hostileImport struct {
	name string // the file name: its extension picks the format
	data func() []byte
	want string // in the error; "" when the file imports
	// The bound on what one import allocates: per bytes for each input
	// byte plus fixed plus 2 MB, what building any theme takes
	// (docs/SECURITY.md).
	per, fixed int
}

func fixture(name string) func() []byte {
	return func() []byte {
		b, err := os.ReadFile("../theme/testdata/hostile/" + name)
		if err != nil {
			panic(err)
		}
		return b
	}
}

var hostileImports = []hostileImport{
	// binary plist
	{"ref-bomb.itermcolors", bplistRefBomb, "expand to more than", 16, 8 << 20},
	{"bplist-nested-bomb.itermcolors", fixture("bplist-nested-bomb.itermcolors"), "expand to more than", 16, 8 << 20},
	{"bplist-cycle.itermcolors", fixture("bplist-cycle.itermcolors"), "contains itself", 16, 8 << 20},
	// JSON
	{"large-color-theme.json", func() []byte { b, _ := hugeJSON(800<<10, false); return b }, "", 48, 0},
	{"huge-color-theme.json", func() []byte { b, _ := hugeJSON(MaxImportSize, false); return b }, "a theme.json is at most 1024 KB", 48, 0},
	{"numbers-color-theme.json", func() []byte { return filled(`{"colors":{"editor.background":"#101418"},"x":[`, "0,", "0]}") }, "more than 10000 values in one array", 48, 0},
	{"empty-rules-color-theme.json", func() []byte {
		return filled(`{"colors":{"editor.background":"#101418"},"tokenColors":[`, "{},", "{}]}")
	}, "more than 10000 values in one array", 48, 0},
	{"deep-color-theme.json", func() []byte { return filled(`{"colors":{"editor.background":"#101418"},"x":`, "[", "") }, "nested more than 64 deep", 48, 0},
	{"long-key-color-theme.json", func() []byte { return filled(`{"colors":{"editor.background":"#101418","`, "a", `":"#zz"}}`) }, "a theme.json is at most 1024 KB", 48, 0},
	{"long-value-color-theme.json", func() []byte { return filled(`{"colors":{"editor.background":"`, "a", `"}}`) }, "not a hex colour", 48, 0},
	// TOML
	{"huge.toml", hugeTOML, "at most 256 KB is read", 24, 4 << 20},
	{"keys.toml", func() []byte { return hugeTOML()[:importCaps["alacritty"]] }, "more than 5000 keys, tables and arrays", 24, 4 << 20},
	{"deep.toml", func() []byte {
		return []byte("[colors.primary]\nbackground = \"#101418\"\ndeep = " + strings.Repeat("[", 4990) + `"#000000"` + strings.Repeat("]", 4990) + "\n")
	}, "", 24, 4 << 20},
	// base16/base24 YAML
	{"huge.yaml", func() []byte { return filled("scheme: x\n", "k: 0\n", "") }, "at most 256 KB is read", 128, 0},
	{"flow.yaml", func() []byte { return filledTo(256<<10, "scheme: x\nbase00: [", "0,", "0]\n") }, "base00: want a colour", 128, 0},
	{"keys.yaml", func() []byte { return filledTo(256<<10, "scheme: x\n", "k: 0\n", "") }, "base00: missing", 128, 0},
	{"deep.yaml", func() []byte { return filledTo(256<<10, "scheme: x\nbase00: ", "[", "") }, "exceeded max depth", 128, 0},
	{"aliases.yaml", func() []byte { // a billion laughs: yaml.v3's nodes keep aliases unexpanded
		doc, prev := "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n", "a"
		for _, c := range "bcdefghi" {
			doc += fmt.Sprintf("%c: &%c [%s]\n", c, c, strings.TrimSuffix(strings.Repeat("*"+prev+",", 9), ","))
			prev = string(c)
		}
		return []byte(doc + "scheme: x\n")
	}, "base00: missing", 128, 0},
	// XML property lists
	{"huge.itermcolors", func() []byte { return filled("<plist><array>", "<true/>", "</array></plist>") }, "at most 1024 KB is read", 64, 0},
	{"values.itermcolors", func() []byte { return filledTo(1<<20, "<plist><array>", "<true/>", "</array></plist>") }, "want a <dict> at the top", 64, 0},
	{"rules.tmTheme", func() []byte {
		return filledTo(1<<20, "<plist><dict><key>settings</key><array>", "<dict><key>scope</key><string>a</string><key>settings</key><dict><key>foreground</key><string>#112233</string></dict></dict>", "</array></dict></plist>")
	}, "", 64, 0},
	{"long-key.itermcolors", func() []byte { return filledTo(1<<20, "<plist><dict><key>", "a", "</key><true/></dict></plist>") }, "no iTerm2 colour keys", 64, 0},
	// kitty, Ghostty, foot
	{"huge.conf", func() []byte { return filled("background #101418\n", "color1 #000000\n", "") }, "at most 256 KB is read", 80, 0},
	{"lines.conf", func() []byte { return filledTo(256<<10, "background #101418\n", "color1 #000000\n", "") }, "", 80, 0},
	{"newlines.conf", func() []byte { return filledTo(256<<10, "background #101418", "\n", "") }, "", 80, 0},
	{"unknown.ini", func() []byte { return filledTo(256<<10, "[colors]\nbackground=101418\n", "foo=bar\n", "") }, "", 80, 0},
	{"palette.ghostty", func() []byte { return filledTo(256<<10, "background = #101418\n", "palette = 300=#000000\n", "") }, "want N=#rrggbb", 80, 0},
	{"long-line.conf", func() []byte { return filledTo(256<<10, "background #101418\nforeground ", "a", "\n") }, "is not a hex colour", 80, 0},
	// No extension: the content picks the format.
	{"newlines", func() []byte { return filled("", "\n", "") }, "not a theme format", 8, 0},
}

// The line of an error at the end of a 4 MB theme is the line of the bad
// value, found within the JSON bound.
func TestHugeJSONErrorNamesItsLine(t *testing.T) {
	data, line := hugeJSON(MaxImportSize, true)
	var err error
	var used uint64
	within(t, 20*time.Second, "importing a 4 MB theme", func() {
		used = allocated(func() { _, err = Import("huge-color-theme.json", data) })
	})
	var ie *ImportError
	if !errors.As(err, &ie) || ie.Line != line || !strings.Contains(ie.Msg, `"#7a828g" is not a hex colour`) {
		t.Fatalf("want the bad colour at line %d, got %v", line, err)
	}
	if bound := uint64(48*len(data) + 2<<20); used > bound {
		t.Errorf("allocated %d MB; the bound is %d MB", used>>20, bound>>20)
	}
}

// allocated is what f allocates, in bytes (every allocation, freed or
// not: an upper bound on the peak it adds).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestHostileImportsEndBounded(t *testing.T) {
	for _, h := range hostileImports {
		t.Run(h.name, func(t *testing.T) {
			data := h.data()
			var imp *Imported
			var err error
			var used uint64
			within(t, 20*time.Second, "importing "+h.name, func() {
				used = allocated(func() { imp, err = Import(h.name, data) })
			})
			bound := uint64(h.per*len(data) + h.fixed + 2<<20)
			t.Logf("%d bytes in, %d allocated (%.1f× the input); bound %d", len(data), used, float64(used)/float64(len(data)), bound)
			if used > bound {
				t.Errorf("one import allocated %d MB from a %d KB file; the bound is %d MB", used>>20, len(data)>>10, bound>>20)
			}
			switch {
			case h.want == "" && err != nil:
				t.Fatalf("a file any theme program reads was refused: %v", err)
			case h.want == "" && imp.Theme == nil:
				t.Fatal("no theme")
			case h.want != "" && err == nil:
				t.Fatalf("imported; want an error with %q", h.want)
			case h.want != "" && !strings.Contains(err.Error(), h.want):
				t.Fatalf("error %.300q; want %q", err, h.want)
			}
			if imp != nil && len(imp.Warnings) > maxWarnings+1 {
				t.Errorf("%d warnings; a person reads them", len(imp.Warnings))
			}
			if err != nil && len(err.Error()) > 400 {
				t.Errorf("the error is %d bytes long; a person reads it", len(err.Error()))
			}
		})
	}
}

// BenchmarkHostileImports times one import of each hostile input (make
// bench): the figures in docs/SECURITY.md.
func BenchmarkHostileImports(b *testing.B) {
	for _, h := range hostileImports {
		data := h.data()
		b.Run(h.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				Import(h.name, data)
			}
		})
	}
}

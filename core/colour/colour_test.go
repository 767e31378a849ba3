package colour

import (
	"encoding/json"
	"testing"
)

func TestParseColor(t *testing.T) {
	tests := []struct {
		in      string
		want    Color
		wantErr bool
	}{
		{"#1e1e2e", Color{0x1e, 0x1e, 0x2e, 0xff}, false},
		{"#ABCDEF", Color{0xab, 0xcd, 0xef, 0xff}, false},
		{"#11223380", Color{0x11, 0x22, 0x33, 0x80}, false},
		{"#12345", Color{}, true},
		{"123456", Color{}, true},
		{"#1234567", Color{}, true},
		{"#12345g", Color{}, true},
		{"#+12345", Color{}, true},
		{" #123456", Color{}, true},
		{"", Color{}, true},
		{"#fff", Color{}, true}, // short form is not accepted: the schema says six or eight digits
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("Parse(%q) error = %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if got != tt.want {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestColorStringAndJSON(t *testing.T) {
	for _, in := range []string{"#1e1e2e", "#11223380", "#ABCDEF"} {
		c, err := Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var back Color
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("unmarshal %s: %v", b, err)
		}
		if back != c {
			t.Errorf("%s round-tripped to %+v via %s", in, back, b)
		}
	}
	if got := (Color{0xab, 0xcd, 0xef, 0xff}).String(); got != "#abcdef" {
		t.Errorf("String() = %s, want lower-case six digits", got)
	}
	if got := (Color{1, 2, 3, 0x40}).String(); got != "#01020340" {
		t.Errorf("translucent String() = %s", got)
	}
	var c Color
	if err := json.Unmarshal([]byte(`42`), &c); err == nil {
		t.Error("a number unmarshalled into a colour")
	}
}

func TestOver(t *testing.T) {
	white := Color{255, 255, 255, 255}
	black := Color{0, 0, 0, 255}
	tests := []struct {
		fg, bg, want Color
	}{
		{Color{10, 20, 30, 255}, white, Color{10, 20, 30, 255}},
		{Color{255, 255, 255, 0}, black, black},
		{Color{255, 255, 255, 128}, black, Color{128, 128, 128, 255}},
		{Color{0, 0, 0, 64}, white, Color{191, 191, 191, 255}},
	}
	for _, tt := range tests {
		if got := tt.fg.Over(tt.bg); got != tt.want {
			t.Errorf("%v over %v = %v, want %v", tt.fg, tt.bg, got, tt.want)
		}
	}
}

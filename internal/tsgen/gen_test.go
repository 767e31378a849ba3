package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The committed frontend/src/lib/gen/events.ts is what the generator
// writes from the Go types now.
func TestGeneratedFileIsCurrent(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	want, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(t.TempDir(), "events.ts")
	if err := os.WriteFile(tmp, want, 0o644); err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile(filepath.Join(root, out))
	if err != nil {
		t.Fatalf("%v: run make types", err)
	}
	if !bytes.Equal(have, want) {
		t.Fatalf("%s differs from what the Go types give (%s): run make types", out, tmp)
	}
}

// What the UI relies on: optional-ness from omitempty, null for nil lists,
// the union of every event type and error code.
func TestGeneratedShapes(t *testing.T) {
	root, _ := moduleRoot()
	b, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{
		"export interface ChatEvent {\n  type: EventType;\n",
		"  toolCall?: ToolCall;\n",
		"  code?: Code;\n",
		"  content: ToolCallContent[] | null;\n",
		"  | \"permission_answered\"\n",
		"  | \"agent_missing\"\n",
		"  currentValue: string | boolean;\n",
		"export interface TurnBatch {\n  turnId: string;\n  seq: number;\n  events: ChatEvent[] | null;\n}",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("generated file lacks %q", want)
		}
	}
}

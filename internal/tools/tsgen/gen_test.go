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
// the union of every event type and error code, ChatEvent as a union the
// UI narrows on type (one member per Go payload, its fields inline).
func TestGeneratedShapes(t *testing.T) {
	root, _ := moduleRoot()
	b, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{
		"export interface ChatEventBase {\n  turnId?: string;\n  sessionId?: string;\n  replay?: boolean;\n}",
		"export type ChatEvent = ChatEventBase & (\n  | { type: \"text\"; text?: string; content?: ContentBlock } // chat.TextChunk\n",
		"  | { type: \"tool_call\"; toolCall?: ToolCall; terminal?: Terminal; command?: string } // chat.ToolCallStarted\n",
		"  | { type: \"error\"; text?: string; code?: Code; stderr?: string[]; agent?: string; status?: Status; server?: string } // chat.ErrorEvent\n",
		"  | { type: \"ready\" } // chat.Ready\n",
		"export type ChatEventOf<T extends EventType> = Extract<ChatEvent, { type: T }>;",
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

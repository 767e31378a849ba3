package chatmemory

import (
	"os"
	"testing"

	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
)

// A chat's choice survives a restart under the id the agent reported for
// it, and a refused one is forgotten (asking again would only repeat the
// refusal); past the bound the least recently used chats go first.
func TestChoicesAreRememberedAcrossRestarts(t *testing.T) {
	t.Setenv("CDXTHEME_CONFIG_DIR", t.TempDir())
	var m Memory
	fresh := true
	setup := &acp.SessionSetup{ConfigOptions: []acp.ConfigOption{{ID: "reasoning", Category: acp.CategoryThoughtLevel, Value: "low"}}}
	if _, err := m.Use(func(m *Memory) {
		m.Note(chat.Event{SessionID: "s1", Payload: chat.SessionSetup{Setup: setup}}, "codex", "/w", map[string]any{acp.CategoryThoughtLevel: "high", "fast": true}, &fresh)
		m.Note(chat.Event{SessionID: "s1", Payload: chat.OptionRefused{Refused: &chat.Refusal{ConfigID: "fast"}}}, "codex", "/w", nil, &fresh)
	}); err != nil {
		t.Fatal(err)
	}
	var again Memory
	again.Use(func(m *Memory) {
		e := m.File.Sessions["s1"]
		if e == nil || e.Choices["reasoning"] != "high" || len(e.Choices) != 1 || e.Cwd != "/w" {
			t.Fatalf("after a restart the chat remembers %+v", e)
		}
		if a := m.File.Agents["codex"]; a == nil || len(a.Options) != 1 {
			t.Fatalf("a fresh session's options were not kept: %+v", a)
		}
		for i := range maxRememberedChats + 1 {
			m.Entry(string(rune('a'+i%26)) + string(rune(i)))
		}
	})
	var third Memory
	third.Use(func(m *Memory) {
		if len(m.File.Sessions) != maxRememberedChats || m.File.Sessions["s1"] != nil {
			t.Fatalf("kept %d chats (s1 kept: %v), want the %d most recent", len(m.File.Sessions), m.File.Sessions["s1"] != nil, maxRememberedChats)
		}
	})
}

// A damaged chat-settings.json is set aside, never read as empty and
// saved over.
func TestDamagedMemoryIsSetAside(t *testing.T) {
	t.Setenv("CDXTHEME_CONFIG_DIR", t.TempDir())
	os.MkdirAll(os.Getenv("CDXTHEME_CONFIG_DIR"), 0o700)
	os.WriteFile(Path(), []byte("{not json"), 0o600)
	var m Memory
	loadErr, saveErr := m.Use(func(m *Memory) { m.Entry("s").SetChoice("model", "x") })
	if loadErr == nil || saveErr != nil {
		t.Fatalf("load %v, save %v: want the damage reported and the new file saved", loadErr, saveErr)
	}
	if b, _ := os.ReadFile(Path()); string(b) == "{not json" {
		t.Fatal("the damaged file is still where the memory is saved")
	}
}

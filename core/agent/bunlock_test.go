package agent

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// The lockfile Bun 1.4.5 wrote for @agentclientprotocol/codex-acp@2.6.0:
// only the packages Bun downloads on this machine are kept, aliases are
// followed to the package they name.
func TestParseBunLock(t *testing.T) {
	b, err := os.ReadFile("testdata/codex-acp-2.6.0.bun.lock")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := parseBunLock(b)
	if err != nil {
		t.Fatal(err)
	}
	var specs []string
	for _, p := range pkgs {
		specs = append(specs, p.Name+"@"+p.Version)
	}
	for _, want := range []string{"@agentclientprotocol/codex-acp@2.6.0", "@openai/codex@0.166.0", "zod@4.6.7"} {
		if !slices.Contains(specs, want) {
			t.Errorf("%s missing from %v", want, specs)
		}
	}
	platform := 0
	for _, s := range specs {
		if s == "@openai/codex@0.166.0-"+npmOS()+"-"+npmCPU() {
			platform++
		} else if len(s) > len("@openai/codex@0.166.0-") && s[:len("@openai/codex@0.166.0-")] == "@openai/codex@0.166.0-" {
			t.Errorf("%s is for another machine", s)
		}
	}
	if npmOS() == "linux" && npmCPU() == "x64" && platform != 1 {
		t.Errorf("the linux-x64 codex binary package is listed %d times", platform)
	}
	if len(specs) != 30-5 {
		t.Errorf("%d packages, want 25 (30 less the 5 other platforms): %v", len(specs), specs)
	}
}

func TestFits(t *testing.T) {
	for _, tt := range []struct {
		v    any
		have string
		want bool
	}{
		{nil, "linux", true},
		{"linux", "linux", true},
		{"darwin", "linux", false},
		{[]any{"darwin", "linux"}, "linux", true},
		{[]any{"!win32"}, "linux", true},
		{[]any{"!linux"}, "linux", false},
	} {
		if got := fits(tt.v, tt.have); got != tt.want {
			t.Errorf("fits(%v, %s) = %v", tt.v, tt.have, got)
		}
	}
}

// The lockfile the app installs the adapter from is the tree the
// integration tests run (peers/package-lock.json): the same versions, each
// with its integrity hash, none with an address of its own. A change of the
// pinned adapter that forgets `go run ./internal/adapterlock` fails here.
func TestShippedLockIsTheTestedTree(t *testing.T) {
	npm, err := os.ReadFile("../../peers/package-lock.json")
	if err != nil {
		t.Fatal(err)
	}
	want, err := BunLockFromNPM(npm, SidecarPackage, SidecarVersion)
	if err != nil {
		t.Fatal(err)
	}
	got, from, err := adapterLock(SidecarVersion, func(string) string { return "" })
	if err != nil || got == nil {
		t.Fatalf("no lockfile ships for %s (%s, %v)", SidecarVersion, from, err)
	}
	if string(got) != string(want) {
		t.Fatalf("core/agent/%s is not peers/package-lock.json's tree: run go run ./internal/adapterlock", ShippedLockPath(SidecarVersion))
	}
	in := Install{Package: SidecarPackage, Version: SidecarVersion, Lock: got, LockFrom: from}
	pkgs, err := in.lockedPackages()
	if err != nil {
		t.Fatal(err)
	}
	var specs []string
	for _, p := range pkgs {
		specs = append(specs, p.Name+"@"+p.Version)
	}
	// cross-spawn 7.1.2 is what a fresh resolve took on the day 7.0.6 was tested.
	for _, s := range []string{"cross-spawn@7.0.6", "@openai/codex@0.166.0", SidecarPackage + "@" + SidecarVersion} {
		if !slices.Contains(specs, s) {
			t.Errorf("the shipped lock lacks %s: %v", s, specs)
		}
	}
	if slices.Contains(specs, "@zed-industries/codex-acp@0.16.0") {
		t.Error("the shipped lock holds the other adapter of the tested tree")
	}
	if _, _, err := adapterLock("9.9.9", func(string) string { return "" }); err != nil {
		t.Error(err)
	}
	none := Install{Package: SidecarPackage, Version: "9.9.9"}
	if _, err := none.lockedPackages(); err == nil || !strings.Contains(err.Error(), "no tested lockfile") {
		t.Errorf("a version without a lockfile: %v, want refused", err)
	}
}

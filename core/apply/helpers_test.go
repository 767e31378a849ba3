package apply

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"cdxtheme/core/companion"
	_ "cdxtheme/core/targets" // the formats written by templates
	"cdxtheme/core/theme"
	"cdxtheme/internal/testrig/programs"
)

// program is the path of a program the test loads an install into.
func program(t *testing.T, name, debian string) string { return programs.Find(t, name, debian) }

// run runs a program with a private HOME and XDG dirs and a time bound.
func run(t *testing.T, dir string, env []string, name string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"HOME=" + dir, "XDG_CONFIG_HOME=" + dir + "/config", "XDG_CACHE_HOME=" + dir + "/cache",
		"XDG_STATE_HOME=" + dir + "/state", "XDG_DATA_HOME=" + dir + "/data", "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}, env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

func mustColor(t testing.TB, s string) theme.Color {
	t.Helper()
	c, err := theme.ParseColor(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func withCompanion(t *testing.T) *theme.Theme {
	t.Helper()
	th := theme.Example()
	th.Companion = companion.Counterpart(th)
	return th
}

// batSample is Go source with one token of each checked kind.
const batSample = `package main

// greet says hello
func greet(n int) string {
	if n > 42 {
		return "many"
	}
	return "few"
}
`

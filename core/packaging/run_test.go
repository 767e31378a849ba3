package packaging

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"testing"
	"time"
)

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

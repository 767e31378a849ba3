package main

import (
	"bytes"
	"cdxtheme/internal/testrig/testbin"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestTheCLIOnlyBuildNeverReachesForAWindow(t *testing.T) {
	bin := testbin.CLI(t)
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"a mistyped command", []string{"sesions"}, []string{`unknown command "sesions"`, "did you mean sessions?", "usage: cdxtheme"}},
		{"a swapped letter", []string{"transcirpt", "x"}, []string{`unknown command "transcirpt"`, "did you mean transcript?"}},
		{"no arguments", nil, []string{"this is the CLI-only build", "cdxtheme help"}},
		{"an unknown flag", []string{"--jsn"}, []string{`unknown flag "--jsn"`, "CLI-only build"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, tc.args...)
			cmd.Env = append(os.Environ(), "CDXTHEME_CONFIG_DIR="+t.TempDir(), "DISPLAY=", "WAYLAND_DISPLAY=")
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			err := cmd.Run()
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != 2 {
				t.Fatalf("exit %v, want 2\nstderr: %s", err, errb.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(errb.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, errb.String())
				}
			}
			if strings.Contains(errb.String(), "build tags") && !strings.Contains(errb.String(), "desktop build tags") {
				t.Errorf("Wails' own complaint reached the user:\n%s", errb.String())
			}
		})
	}
}

// make audit must say what it checked and never report an unreachable
// database as clean. The tools are stand-ins here (this machine may not
// reach vuln.go.dev); node parses npm's report as in a real run.
func TestAuditSaysPlainlyWhatItCouldCheck(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is needed to read npm audit's report")
	}
	stubs := t.TempDir()
	os.WriteFile(filepath.Join(stubs, "go"), []byte("#!/bin/sh\nprintf '%s\\n' \"$STUB_GO_OUT\"\nexit \"$STUB_GO_RC\"\n"), 0o755)
	os.WriteFile(filepath.Join(stubs, "npm"), []byte("#!/bin/sh\nprintf '%s\\n' \"$STUB_NPM_JSON\"\n[ -n \"$STUB_NPM_ERR\" ] && echo \"$STUB_NPM_ERR\" >&2\nexit 0\n"), 0o755)
	clean := `{"auditReportVersion":2,"vulnerabilities":{},"metadata":{"vulnerabilities":{"info":0,"low":0,"moderate":0,"high":0,"critical":0,"total":0}}}`
	high := `{"auditReportVersion":2,"vulnerabilities":{"x":{}},"metadata":{"vulnerabilities":{"info":0,"low":0,"moderate":0,"high":1,"critical":0,"total":1}}}`
	blocked := `{"message":"405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk"}`
	offline := "govulncheck: fetching vulnerabilities: Get \"https://vuln.go.dev/index/modules.json.gz\": dial tcp: lookup vuln.go.dev: no such host"
	tests := []struct {
		name, goOut, goRC, npmJSON, offlineOK string
		wantCode                              int
		want                                  []string
	}{
		{"everything answered, nothing found", "No vulnerabilities found.", "0", clean, "", 0, []string{"ok          govulncheck (CLI build)", "ok          npm audit (frontend)", "audit: ok"}},
		{"a Go vulnerability", "Vulnerability #1: GO-2099-0001", "3", clean, "", 1, []string{"AFFECTED    govulncheck", "GO-2099-0001", "audit: FAILED"}},
		{"an npm vulnerability", "No vulnerabilities found.", "0", high, "", 1, []string{"AFFECTED    npm audit (frontend): critical 0, high 1", "audit: FAILED"}},
		{"vuln.go.dev unreachable", offline, "1", clean, "", 3, []string{"UNREACHABLE govulncheck (CLI build): the Go vulnerability database (vuln.go.dev) could not be reached; NOT checked", "no such host", "audit: INCOMPLETE"}},
		{"npm's advisories blocked", "No vulnerabilities found.", "0", blocked, "", 3, []string{"UNREACHABLE npm audit (e2e)", "405 Method Not Allowed", "audit: INCOMPLETE"}},
		{"offline allowed, still loud", offline, "1", blocked, "1", 0, []string{"UNREACHABLE govulncheck", "UNREACHABLE npm audit", "audit: INCOMPLETE"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("bash", "scripts/audit.sh")
			cmd.Env = append(os.Environ(), "GO="+filepath.Join(stubs, "go"), "PATH="+stubs+":"+os.Getenv("PATH"),
				"STUB_GO_OUT="+tc.goOut, "STUB_GO_RC="+tc.goRC, "STUB_NPM_JSON="+tc.npmJSON, "AUDIT_ALLOW_OFFLINE="+tc.offlineOK)
			out, err := cmd.CombinedOutput()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.wantCode {
				t.Errorf("exit %d, want %d", code, tc.wantCode)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if tc.wantCode != 0 && strings.Contains(string(out), "audit: ok") {
				t.Errorf("claims success:\n%s", out)
			}
		})
	}
}

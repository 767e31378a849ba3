// Package agent decides which ACP agent program to run and runs it: its own
// process group, a bounded stderr tail, and a teardown that escalates from
// closing stdin to SIGTERM to SIGKILL of the whole group.
package agent

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
)

// Command is a resolved agent command line.
type Command struct {
	Path   string   // executable (absolute or found on PATH)
	Args   []string // arguments after the executable
	Env    []string // extra KEY=VALUE appended to the inherited environment
	Unset  []string // names of inherited variables the agent must not get (secrets meant for other agents)
	Source string   // "override" | "path" | "sidecar"
	Reason string   // one human sentence: why this command was chosen
}

// ShimComm is the name ps shows for the shim (at most 15 bytes), rather
// than "exe" from /proc/self/exe. A process check that counts the agent's
// processes by its binary or environment skips it by this name.
const ShimComm = "cdxtheme-shim"

// Sources of a resolved command.
const (
	SourceOverride = "override"
	SourcePath     = "path"
	SourceSidecar  = "sidecar"
)

// environ is the agent's environment: base without the Unset names, then Env.
func (c Command) environ(base []string) []string {
	out := make([]string, 0, len(base)+len(c.Env))
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(c.Unset, name) {
			out = append(out, kv)
		}
	}
	return append(out, c.Env...)
}

// String renders the command line shell-quoted, for messages and logs.
func (c Command) String() string {
	words := make([]string, 0, 1+len(c.Args))
	words = append(words, quote(c.Path))
	for _, a := range c.Args {
		words = append(words, quote(a))
	}
	return strings.Join(words, " ")
}

// quote returns s as one word for SplitCommand (a backslash left bare, for
// Windows paths).
func quote(s string) string { return quoteWord(s, `\`) }

// ShellWords writes words as one POSIX shell command line, each quoted as
// sh needs it to arrive as that one word: what a permission request shows,
// so an argument holding spaces, quotes, newlines or "; rm" reads as one.
func ShellWords(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = quoteWord(w, "")
	}
	return strings.Join(out, " ")
}

func quoteWord(s, alsoSafe string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			strings.ContainsRune("@%+=:,./-_", r) || strings.ContainsRune(alsoSafe, r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

var errUnterminated = errors.New("unterminated quote")

// SplitCommand splits a command line typed by the user (--agent,
// CDXTHEME_AGENT) into words once, the way a POSIX shell would without
// expansion (on Windows a backslash is an ordinary character). Stored
// commands are word lists and never pass through here.
func SplitCommand(s string) ([]string, error) { return splitWords(s, runtime.GOOS == "windows") }

// splitWords splits a command line into words the way a POSIX shell would,
// without expansion: 'single' quotes are literal, "double" quotes allow \" \\
// \$ \` escapes, and an unquoted backslash escapes the next character. With
// literalBackslash (Windows) an unquoted backslash is an ordinary character so
// paths like C:\Tools\agent.exe survive.
func splitWords(s string, literalBackslash bool) ([]string, error) {
	var (
		words  []string
		cur    strings.Builder
		inWord bool
	)
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case r == '\'':
			inWord = true
			j := i + 1
			for j < len(rs) && rs[j] != '\'' {
				j++
			}
			if j >= len(rs) {
				return nil, fmt.Errorf("split %q: %w", s, errUnterminated)
			}
			cur.WriteString(string(rs[i+1 : j]))
			i = j
		case r == '"':
			inWord = true
			j := i + 1
			for ; j < len(rs) && rs[j] != '"'; j++ {
				if rs[j] == '\\' && j+1 < len(rs) && strings.ContainsRune("\"\\$`", rs[j+1]) {
					j++
				}
				cur.WriteRune(rs[j])
			}
			if j >= len(rs) {
				return nil, fmt.Errorf("split %q: %w", s, errUnterminated)
			}
			i = j
		case r == '\\' && !literalBackslash:
			inWord = true
			if i+1 < len(rs) {
				i++
				cur.WriteRune(rs[i])
			}
		default:
			inWord = true
			cur.WriteRune(r)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

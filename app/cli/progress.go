package cli

import (
	"fmt"
	"io"
	"os"

	"cdxtheme/core/agent"

	"github.com/mattn/go-isatty"
)

// installLine renders the first-run install of the sidecar's adapter on
// stderr (never stdout, so --json stays clean): one line rewritten in place
// on a terminal, otherwise a plain line per phase and per 10 %.
type installLine struct {
	w        io.Writer
	tty      bool
	open     bool // a rewritten line is on screen without its newline
	phase    string
	lastTens int64
}

func newInstallLine(w io.Writer) *installLine {
	tty := false
	if f, ok := w.(*os.File); ok {
		tty = isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
	}
	return &installLine{w: w, tty: tty, lastTens: -1}
}

func (l *installLine) show(p agent.InstallProgress) {
	var msg string
	switch p.Phase {
	case agent.PhaseWaiting:
		msg = fmt.Sprintf("Waiting for another install of the agent %s to finish…", p.Package)
	case agent.PhaseResolving:
		msg = fmt.Sprintf("Installing the agent %s: asking the registry…", p.Package)
	case agent.PhaseDownloading, agent.PhaseFinishing:
		msg = fmt.Sprintf("Installing the agent %s: %s", p.Package, amount(p.Done, p.Total))
		if p.Phase == agent.PhaseFinishing {
			msg += ", finishing…"
		}
	case agent.PhaseDone:
		msg = fmt.Sprintf("Installed the agent %s", p.Package)
		if p.Total > 0 {
			msg += " (" + bytesText(p.Total) + ")"
		}
		msg += "."
	default:
		return
	}
	if l.tty {
		fmt.Fprintf(l.w, "\r\x1b[K%s", msg)
		l.open = true
		if p.Phase == agent.PhaseDone {
			l.end()
		}
		return
	}
	tens := int64(-1)
	if p.Phase == agent.PhaseDownloading && p.Total > 0 {
		tens = p.Done * 10 / p.Total
	}
	if p.Phase == l.phase && tens == l.lastTens {
		return
	}
	l.phase, l.lastTens = p.Phase, tens
	fmt.Fprintln(l.w, msg)
}

// end finishes a line left open, before anything else goes to stderr.
func (l *installLine) end() {
	if l.open {
		io.WriteString(l.w, "\n")
		l.open = false
	}
}

// amount is "12.3 MB of 172.3 MB (7%)", or the bytes alone while the total
// is unknown.
func amount(done, total int64) string {
	if total <= 0 {
		return bytesText(done)
	}
	return fmt.Sprintf("%s of %s (%d%%)", bytesText(done), bytesText(total), done*100/total)
}

// bytesText writes a size in decimal units, as download tools do.
func bytesText(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}

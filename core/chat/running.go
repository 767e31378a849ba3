package chat

import "io"

// Running is the agent a link talks to: the agent's process
// (*agent.Process), or an in-process peer that Options.Dial hands over.
type Running interface {
	Stdin() io.WriteCloser
	Stdout() io.Reader
	// StderrTail is the agent's last stderr lines.
	StderrTail() []string
	// Done is closed once the agent is gone; ExitErr then says how it ended.
	Done() <-chan struct{}
	ExitErr() error
	Pid() int
	// Stop ends the agent and returns once it is gone; Release lets it
	// finish on its own after a completed turn; Kill ends it at once.
	Stop() error
	Release()
	Kill()
}

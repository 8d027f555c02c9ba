//go:build unix

package safeexec

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// A group is the program a run started and every process it starts in
// turn. Here it is a process group: the program leads a new one from its
// first instruction (setpgid in the child, before exec), so nothing it
// starts can escape it except by leaving it on purpose (setsid, setpgid).
// The group has no state of its own; its id is the leader's pid.
type group struct{}

// prepare asks for the program to lead a process group of its own.
func (*group) prepare(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// started has nothing to do: the group exists from the program's start.
func (*group) started(*os.Process) {}

// interrupt sends SIGINT to the group led by p.
func (*group) interrupt(p *os.Process) error { return signalGroup(p, syscall.SIGINT) }

// kill sends SIGKILL to the group led by p.
func (*group) kill(p *os.Process) error { return signalGroup(p, syscall.SIGKILL) }

// release has nothing to free.
func (*group) release() {}

// signalGroup signals the process group led by p. The group outlives its
// leader while any member lives, and the kernel does not reuse its id while
// any member does; only in the moment after the last member is gone could
// the id go to a new group, which would take a wrap of the whole pid space.
func signalGroup(p *os.Process, sig syscall.Signal) error {
	if p == nil {
		return nil
	}
	if err := syscall.Kill(-p.Pid, sig); err != nil {
		if errors.Is(err, syscall.ESRCH) {
			return os.ErrProcessDone
		}
		return p.Signal(sig)
	}
	return nil
}

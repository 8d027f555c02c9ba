//go:build windows

package safeexec

import (
	"os"
	"os/exec"
	"sync"
	"unsafe"

	"golang.org/x/sys/windows"
)

// A group is the program a run started and every process it starts in
// turn. Here it is a job object: the program is assigned to a new job as
// soon as it has started, and every process it starts from then on is
// born in that job. The job is made with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
// so its processes die when its last handle closes: at release, or when
// cortex itself dies.
//
// What this does not guarantee, against a process group on Unix:
//   - The program runs for a moment before it joins the job (os/exec
//     starts it running, and assigns no job at creation); a process it
//     starts in that moment is outside the job and outlives the kill.
//   - Windows has no interrupt that a process without a console can be
//     sent, so interrupt kills at once: the program gets no grace to
//     clean up, and its exit code is 1 rather than a signal's -1.
//   - A process may leave the job only if the job allowed breakaway,
//     which this one does not; but when the job cannot be made or the
//     program cannot be assigned to it (an old Windows refusing nested
//     jobs), the group is the program alone, and kill kills only it.
type group struct {
	mu  sync.Mutex
	job windows.Handle // 0 until started, and again after release
}

// prepare has nothing to ask for: the job is made once the program runs.
func (*group) prepare(*exec.Cmd) {}

// started makes the job and assigns p to it. On failure the group stays
// empty and kill falls back to killing p alone.
func (g *group) started(p *os.Process) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(job)
		return
	}
	// The pid names p until p is waited for: os.Process holds a handle to
	// it, and Windows does not reuse the id of a process with open handles.
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(p.Pid))
	if err != nil {
		_ = windows.CloseHandle(job)
		return
	}
	err = windows.AssignProcessToJobObject(job, h)
	_ = windows.CloseHandle(h)
	if err != nil {
		_ = windows.CloseHandle(job)
		return
	}
	g.mu.Lock()
	g.job = job
	g.mu.Unlock()
}

// interrupt kills the group: see the type's doc for why there is no gentler
// signal here.
func (g *group) interrupt(p *os.Process) error { return g.kill(p) }

// kill terminates every process in the job, or p alone when there is no
// job (before started, or when it could not be made).
func (g *group) kill(p *os.Process) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.job != 0 {
		return windows.TerminateJobObject(g.job, 1)
	}
	if p == nil {
		return nil
	}
	return p.Kill()
}

// release closes the job, which kills whatever is still in it.
func (g *group) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.job != 0 {
		_ = windows.CloseHandle(g.job)
		g.job = 0
	}
}

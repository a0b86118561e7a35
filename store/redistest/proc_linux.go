package redistest

import "syscall"

// sysProcAttr kills redis-server when the test binary dies, even by SIGKILL
// (say, a test timeout), so no server outlives its tests.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

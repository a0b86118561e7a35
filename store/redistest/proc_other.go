//go:build !linux

package redistest

import "syscall"

// sysProcAttr has nothing to add off Linux: Main and test cleanups stop the
// server, but a test binary killed outright may leave it running.
func sysProcAttr() *syscall.SysProcAttr { return nil }

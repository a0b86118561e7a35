package main

import (
	"slices"
	"syscall"
	"time"
)

// threadCPU is the CPU time this thread has used (the caller locks the
// goroutine to its thread): what a computation costs on an idle core when
// other work shares the machine. 0 where the system cannot tell.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(rusageThread, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rusageThread is Linux's RUSAGE_THREAD.
const rusageThread = 1

// quantiles of a set of values: times in milliseconds, sizes in bytes.
type quantiles struct {
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

// quantilesOf are the quantiles of times, in milliseconds (to the
// microsecond).
func quantilesOf(ds []time.Duration) quantiles {
	xs := make([]float64, len(ds))
	for i, d := range ds {
		xs[i] = float64(d.Microseconds()) / 1000
	}
	return quantilesOfValues(xs)
}

func quantilesOfValues(xs []float64) quantiles {
	if len(xs) == 0 {
		return quantiles{}
	}
	xs = slices.Clone(xs)
	slices.Sort(xs)
	q := func(f float64) float64 { return xs[min(len(xs)-1, int(f*float64(len(xs))))] }
	return quantiles{P50: q(0.5), P90: q(0.9), P99: q(0.99), Max: q(1)}
}

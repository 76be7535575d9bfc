// Package procfs reads the kernel's small files (/proc, /sys, cgroups)
// with plain system calls. Ringside reads them all the time: the sandbox's
// watchdog a dozen fifty times a second for every bot, the runner each
// thread's schedstat every turn. Through an os.File each read would also
// register the file with the network poller, take its locks and give it
// a finalizer: a fifth of what a waiting bot's launcher cost.
//
// It is Linux's alone; elsewhere the package is empty.
package procfs

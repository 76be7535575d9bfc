package sandbox

import "golang.org/x/sys/unix"

const (
	syscallArch = unix.AUDIT_ARCH_AARCH64
	x32Bit      = 0 // no second ABI
)

var deniedSyscalls = []int{
	unix.SYS_UNSHARE, unix.SYS_SETNS, unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV,
	unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY, unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN,
	unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_MOVE_MOUNT, unix.SYS_OPEN_TREE,
	unix.SYS_OPEN_TREE_ATTR, unix.SYS_FSOPEN, unix.SYS_FSMOUNT, unix.SYS_FSCONFIG, unix.SYS_FSPICK,
	unix.SYS_MOUNT_SETATTR, unix.SYS_USERFAULTFD, unix.SYS_KEXEC_LOAD, unix.SYS_KEXEC_FILE_LOAD,
	unix.SYS_INIT_MODULE, unix.SYS_FINIT_MODULE, unix.SYS_DELETE_MODULE, unix.SYS_REBOOT, unix.SYS_SWAPON,
	unix.SYS_SWAPOFF, unix.SYS_ACCT, unix.SYS_INOTIFY_INIT1, unix.SYS_FANOTIFY_INIT,
}

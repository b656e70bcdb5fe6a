// A warm box's reset (child side: the warm box's init, after each run, with the box empty and
// after the run's report, before its own): the kernel state of the box's namespaces a run could leave. The host
// empties /box, /tmp and /dev/shm and checks the rest (WarmBox.swift, BoxFingerprint).
#define _GNU_SOURCE
#include "csandbox.h"
#include "spawn_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <unistd.h>

// Frees every SysV object of the box's IPC namespace now. Replacing the
// namespace alone would do it too, but the kernel frees an old namespace
// later, from a workqueue, so its memory would stay charged to the idle box
// for a while; IPC_RMID of an object no process has attached frees it
// before this call returns to user space.
static int remove_ipc_objects(void) {
  struct shm_info shared;
  int highest = shmctl(0, SHM_INFO, (struct shmid_ds *)&shared);
  if (highest < 0) return -1;
  for (int index = 0; shared.used_ids > 0 && index <= highest; index++) {
    struct shmid_ds segment;
    int id = shmctl(index, SHM_STAT_ANY, &segment);
    if (id >= 0 && shmctl(id, IPC_RMID, NULL) != 0) return -1;
  }
  struct msginfo messages;
  highest = msgctl(0, MSG_INFO, (struct msqid_ds *)&messages);
  if (highest < 0) return -1;
  for (int index = 0; messages.msgpool > 0 && index <= highest; index++) {
    struct msqid_ds queue;
    int id = msgctl(index, MSG_STAT_ANY, &queue);
    if (id >= 0 && msgctl(id, IPC_RMID, NULL) != 0) return -1;
  }
  struct seminfo semaphores;
  highest = semctl(0, 0, SEM_INFO, &semaphores);
  if (highest < 0) return -1;
  for (int index = 0; semaphores.semusz > 0 && index <= highest; index++) {
    struct semid_ds set;
    int id = semctl(index, 0, SEM_STAT_ANY, &set);
    if (id >= 0 && semctl(id, 0, IPC_RMID) != 0) return -1;
  }
  return 0;
}

// The box's pid counter, opened once (a layout without /proc cannot
// reset it): the next run's program gets pid 2 again, as in a fresh box,
// and cannot learn from its pid how many processes the last run made.
static int last_pid_fd = -1;

void dsa_init_open_pid_counter(void) { last_pid_fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC); }

// Called with the box empty, after the run's report and before the reset's
// (DSA_REPORT_RESET_DONE): the parent takes that as "the box is reset" and
// checks the rest itself (BoxFingerprint).
// Returns the failing DSA_RESET_* step, or 0, with errno set on failure.
int dsa_init_reset_after_run(void) {
  // Told of every call that makes an IPC object and none went through: the namespace is as the
  // last reset left it (no object, no id handed out, no queue).
  int untouched = dsa_init_ipc_notices >= 0 && !dsa_init_ipc_used;
  dsa_init_ipc_used = 0;
  if (!untouched) {
    if (remove_ipc_objects() != 0) return DSA_RESET_IPC_OBJECTS;
    // POSIX message queues cannot be listed without a mount: a new namespace
    // drops them (their memory is freed when the kernel frees the old one).
    if (unshare(CLONE_NEWIPC) != 0) return DSA_RESET_IPC_NAMESPACE;
  }
  if (last_pid_fd >= 0 && pwrite(last_pid_fd, "1", 1, 0) != 1) return DSA_RESET_PID_COUNTER;
  return 0;
}

// Network namespaces (parent side): the CLI's first box's network namespace, made ahead on a
// thread of its own while the CLI starts (making one is the largest part of a box's clone), and
// entered by dsa_spawn's thread for the clone so the init starts in it. Every other box gets its
// own through CLONE_NEWNET at the clone.
#define _GNU_SOURCE
#include "csandbox.h"
#include "spawn_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

int dsa_make_network_namespace(void) {
  if (unshare(CLONE_NEWNET) != 0) return -errno;
  int fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
  return fd < 0 ? -errno : fd;
}

// The thread that makes the next box's network namespace, and what it made:
// its fd or -errno, read once the thread is joined.
static pthread_t network_namespace_thread;
static int network_namespace_thread_started;
static int prepared_network_namespace = -1;

static void *make_prepared_network_namespace(void *unused) {
  (void)unused;
  prepared_network_namespace = dsa_make_network_namespace();
  return NULL;
}

void dsa_prepare_network_namespace(void) {
  if (pthread_create(&network_namespace_thread, NULL, make_prepared_network_namespace, NULL) == 0)
    __atomic_store_n(&network_namespace_thread_started, 1, __ATOMIC_RELEASE);
}

int dsa_take_network_namespace(void) {
  // One caller joins the thread; waiting for it is never longer than making a namespace anew.
  if (!__atomic_exchange_n(&network_namespace_thread_started, 0, __ATOMIC_ACQ_REL)) return -1;
  if (pthread_join(network_namespace_thread, NULL) != 0) return -1;
  return prepared_network_namespace >= 0 ? prepared_network_namespace : -1;
}

// Entered before the owner's uid is taken (dsa_spawn): setns needs CAP_SYS_ADMIN.
int dsa_parent_enter_network_namespace(int namespace_fd, int *original) {
  *original = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
  if (*original < 0) return errno;
  if (setns(namespace_fd, CLONE_NEWNET) != 0) {
    int error = errno;
    close(*original);
    *original = -1;
    return error;
  }
  return 0;
}

// Puts the calling thread back into the network namespace `original` (an fd of
// its own one), and closes it. It cannot fail: the fd is valid and we are root.
void dsa_parent_return_to_network_namespace(int original) {
  if (original < 0) return;
  if (setns(original, CLONE_NEWNET) != 0) abort();
  close(original);
}

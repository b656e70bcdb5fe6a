// attack: create POSIX message queues until the kernel refuses (their bytes are counted per user, and were charged to root)
// expect: status in [ok]; stdout matches "queues [0-3] "; stdout contains "held"
// during: root_quota
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void) {
  int queues = 0;
  char name[32];
  for (; queues < 1000; queues++) {
    snprintf(name, sizeof name, "/attack-%d", queues);
    if (mq_open(name, O_CREAT | O_RDWR, 0600, NULL) == (mqd_t)-1) break;
  }
  int error = errno;
  struct mq_attr small = {.mq_maxmsg = 1, .mq_msgsize = 1};
  int small_queues = 0;
  for (; small_queues < 1000; small_queues++) {
    snprintf(name, sizeof name, "/small-%d", small_queues);
    if (mq_open(name, O_CREAT | O_RDWR, 0600, &small) == (mqd_t)-1) break;
  }
  printf("queues %d (%s), small ones %d\n", queues, strerror(error), small_queues);
  fflush(stdout);
  sleep(2);  // hold them while the host checks root's own
  printf("held\n");
  return 0;
}

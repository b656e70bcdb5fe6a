// attack: leave a 600 MiB SysV segment, a full message queue, a semaphore set and a POSIX message queue behind for the idle warm box to stay charged with
// limits: memory_mb=1024
// expect: status in [ok]; stdout contains "left"
// follow-up: status in [ok]; stdout contains "clean"
#include <fcntl.h>
#include <mqueue.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>

#define KEY 0x5EED0002

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "follow-up") == 0) {
    int shm = shmget(KEY, 0, 0), msg = msgget(KEY, 0), sem = semget(KEY, 0, 0);
    mqd_t posix = mq_open("/dsa-attack-left", O_RDONLY);
    if (shm == -1 && msg == -1 && sem == -1 && posix == (mqd_t)-1)
      printf("clean\n");
    else
      printf("LEFT shm %d msg %d sem %d mq %d\n", shm, msg, sem, (int)posix);
    return 0;
  }
  size_t size = (size_t)600 << 20;
  int segment = shmget(KEY, size, IPC_CREAT | 0666);
  char *memory = (char *)shmat(segment, NULL, 0);
  if (segment < 0 || memory == (char *)-1) {
    perror("shm");
    return 1;
  }
  memset(memory, 1, size);
  shmdt(memory);
  int queue = msgget(KEY, IPC_CREAT | 0666);
  struct {
    long type;
    char text[4000];
  } message = {1, "left"};
  while (msgsnd(queue, &message, sizeof message.text, IPC_NOWAIT) == 0) {
  }
  semget(KEY, 8, IPC_CREAT | 0666);
  struct mq_attr attributes;
  memset(&attributes, 0, sizeof attributes);
  attributes.mq_maxmsg = 10;
  attributes.mq_msgsize = 8192;
  mqd_t posix = mq_open("/dsa-attack-left", O_CREAT | O_WRONLY, 0666, &attributes);
  for (int i = 0; posix != (mqd_t)-1 && i < 10; i++) mq_send(posix, message.text, sizeof message.text, 0);
  printf("left\n");
  return 0;
}

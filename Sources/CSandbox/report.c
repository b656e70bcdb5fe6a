// Reports: the records the box's children write to the parent (child side: the init, and the
// program before its execve).
//
// A failed step is the fixed `struct dsa_report` {step, errno, index}, one write smaller than
// PIPE_BUF (so the parent reads it whole or not at all), then _exit(127); Swift turns the step into
// words. The end of a run is the same record with the program's wait status and usage.
#define _GNU_SOURCE
#include "csandbox.h"
#include "spawn_internal.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

void dsa_child_report_failure(int report_fd, int step, int error, int index) {
  struct dsa_report record;
  memset(&record, 0, sizeof record);
  record.kind = DSA_REPORT_SETUP_FAILED;
  record.step = step;
  record.error = error;
  record.index = index;
  // A short or failed write leaves the parent with EOF and no record, which
  // it reports as an unexplained setup failure; nothing better is possible.
  (void)!write(report_fd, &record, sizeof record);
}

void dsa_child_fail(int report_fd, int step, int index) {
  dsa_child_report_failure(report_fd, step, errno, index);
  _exit(127);
}

void dsa_init_send_report(int report_fd, const struct dsa_report *record) {
  ssize_t written;
  do {
    written = write(report_fd, record, sizeof *record);
  } while (written < 0 && errno == EINTR);
}

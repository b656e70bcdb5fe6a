// What spawn.c and init_exec.c share; not part of the module's interface.
#ifndef CSANDBOX_SPAWN_INTERNAL_H
#define CSANDBOX_SPAWN_INTERNAL_H

#include "csandbox.h"

struct clone_args;

/// The box's init: never returns.
__attribute__((noreturn)) void dsa_internal_run_init(const struct dsa_spawn_plan *plan);

/// The fd given to dsa_start_inits_by_exec, or -1: inits are then forked.
int dsa_internal_init_executable(void);

/// clone3 with `args` (CLONE_VM, CLONE_VFORK and a stack are added) into a child that execs the
/// init binary with `plan`; the child's pid, or -1 with errno. A failure after the clone reaches
/// the parent as a DSA_STEP_EXEC_INIT report on `plan->program.report_fd`.
long dsa_internal_clone_exec_init(struct clone_args *args, const struct dsa_spawn_plan *plan);

#endif

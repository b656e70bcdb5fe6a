// attack: crash Node with a core dump (process.abort) and read what the kernel would do: the core limit in /proc/self/limits
// expect: status in [runtime_error]; signal == SIGABRT; stdout matches "Max core file size +1 +1 +bytes"
const fs = require("fs");
const limits = fs.readFileSync("/proc/self/limits", "utf8").split("\n");
console.log(limits.filter((line) => line.startsWith("Max core file size")).join("\n"));
process.abort();

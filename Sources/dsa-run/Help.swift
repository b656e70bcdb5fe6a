import Challenges
import SystemCore

// The help texts: `dsa-run --help`, and `dsa-run COMMAND --help` for each command. README.md's usage,
// options and exit-code tables say the same.

/// `dsa-run --version`: the version dsa-rund shares (`BuildIdentity`).
let toolVersion = BuildIdentity.version

/// The extensions that name a language, from the one table (`ChallengeLanguages`).
let knownExtensions = ChallengeLanguages.byExtension.keys.sorted().map { "." + $0 }.joined(separator: " ")

let exitCodesHelp = """
  Exit codes (the program's own is passed through; every other ending prints a "dsa-run:" line on
  stderr, "dsa-run: runtime_error: The program exited with code N ..." for a program's own non-zero
  code, which tells a program's 2 or 124 from dsa-run's):
    0-255      the program's own exit code (ok for 0, else runtime_error)
    128+N      the program was ended by signal N (a one-line message says which); also dsa-run's own
               exit when it gets SIGINT (130), SIGHUP (129) or SIGTERM (143): the program is stopped
               and its box removed
    2          dsa-run's usage error (bad flag, unknown language or extension, missing file, limit out
               of range, toolchain not installed: the line says how to install it; not root and no
               --daemon or --remote: boxes are made as root)
    3          internal_error: the sandbox failed, or (--challenge) the challenge's checker failed
               (never the program's fault); --remote: the server could not be reached or failed
    120        --challenge: the grade is not accepted (wrong_answer, runtime_error, time_limit, ...)
    121        compile_error (the compiler's messages are on stderr)
    122        forbidden: a blocked system call killed the program
    123        output_limit
    124        time_limit (CPU or wall; the message says which)
    125        memory_limit
  """

let runHelp = """
  Usage:
    dsa-run [--lang LANG] FILE [FILE...] [OPTIONS] [-- ARGS...]   compile and run a program in a box
    dsa-run [--lang LANG] FILE --challenge ID|DIR [--json] [--stop-at-first-failure] [--watch]
                                                  grade a program on a challenge's tests
  The language is the first FILE's extension's (\(knownExtensions)) unless --lang names it.

  """ + runOptionsHelp

/// The options of a run, in `dsa-run --help` as in `dsa-run --lang --help`.
let runOptionsHelp = """
  --lang options:
    --lang LANG            the language (default: told by the first FILE's extension)
    --version V            a language version (default: the newest installed)
    --stdin PATH           feed this file whole (default: dsa-run's own stdin, passed to the program
                           as it arrives; at a terminal the program gets a terminal of its own: what
                           is typed reaches it as typed, Ctrl-D ends input, Ctrl-C stops it)
    --no-tty               at a terminal, give the program a pipe instead (lines as typed)
    --raw-output           at a terminal, pass the program's output unchanged (by default escape
                           sequences beyond colour and cursor movement are shown as ^[, not obeyed)
    --time-limit SEC       CPU time, at most 60 s (default from runners/LANG.json)
    --wall-limit SEC       wall-clock time, at most 120 s (at a terminal too, when given)
    --live-wall-limit SEC  at a terminal, the wall-clock time of the interactive run (default 600,
                           at most 3600): a person types its input, so it is bounded by its CPU
                           limit, this and the idle limit
    --idle-limit SEC       at a terminal, stop a run that took no input and printed nothing for
                           this long (default 120)
    --memory-limit MB      memory, at most 4096 MB
    --output-limit KB      bytes kept per stream, at most 65536 KB
    --json                 one result object: {language, version, compile, run, steps}
    --cache-dir PATH       compile cache (default /var/cache/dsa-run/compile)
    --challenge ID|DIR     grade on a challenge (an id under challenges/, or a directory): one line
                           per test, the first failure explained, a total; exit 0 when accepted
    --stop-at-first-failure  with --challenge: start no more tests after one fails
    --watch                run (or grade) again each time a FILE is saved; Ctrl-C ends it
    --remote URL           run (or grade) on a dsa-rund: http://HOST[:PORT][/PREFIX] or unix:/PATH
                           (a Unix socket); default $DSA_RUN_REMOTE when set
    --daemon               the local daemon: --remote unix:$DSA_RUN_DAEMON_SOCKET (default
                           unix:/run/dsa-rund.sock)
    --local                run here even when DSA_RUN_REMOTE is set
    --token TOKEN          bearer token for --remote (default $DSA_RUN_TOKEN)

  """

let execHelp = """
  Usage:
    dsa-run exec [OPTIONS] -- COMMAND [ARGS...]   run an argv in a box (COMMAND is an absolute path)

  """ + execOptionsHelp

/// The options of `exec`, in `dsa-run --help` as in `dsa-run exec --help`.
let execOptionsHelp = """
  exec options:
    --time-limit SEC       CPU time of the whole box (default 5, at most 60)
    --wall-limit SEC       wall-clock time (default 10, at most 120)
    --memory-limit MB      memory of the whole box (default 256, at most 4096)
    --output-limit KB      bytes kept per stream; more kills the box (default 1024, at most 65536)
    --processes N          processes and threads at once (default 64, at most 1024)
    --tmp-limit MB         size of /tmp and of /box (default 64, at most 1024)
    --stdin PATH           feed this file; without it, dsa-run's own stdin is fed
                           when it is not a terminal
    --env NAME=VALUE       add to the (otherwise empty) environment; repeatable
    --mount HOST[:BOX]     bind a host path read-only; repeatable
    --file NAME=HOSTPATH   copy a host file into /box/NAME before the run; repeatable
    --policy NAME          seccomp policy from policies/ (default "default")
    --cgroup-mode MODE     cgroup-v2, cgroup-v1 or rlimit (default: detect)
    --work-root PATH       host directory for box work directories (default /run/dsa-run)
    --json                 print one JSON result object instead of the program's output
    --raw-output           at a terminal, pass the output unchanged (by default escape sequences
                           beyond colour and cursor movement are shown as ^[, not obeyed)

  """

let languagesHelp = """
  Usage:
    dsa-run languages [--json]   languages, versions, and whether they are installed

  """

let challengesHelp = """
  Usage:
    dsa-run challenges [--json]                   the challenges by topic: id, title, tests, tags
    dsa-run challenges show ID|DIR                the statement and the sample tests
    dsa-run challenges starter ID|DIR --lang LANG [-o FILE]
                                                  the starter code (on stdout, or written to FILE)
    dsa-run challenges --check [--solutions] [--record] [DIR...]
                                                  validate challenges (a challenge or a challenges/ folder);
                                                  --solutions also grades every reference solution;
                                                  --record first runs each challenge's "reference" and
                                                  writes the expected steps it prints to expected/

  """

let doctorHelp = """
  Usage:
    dsa-run doctor [--json]   report this host's sandbox support and run a self-test

  """

let environmentHelp = """
  Environment:
    DSA_RUN_DATA           the folder that holds runners/, policies/ and challenges/
    DSA_RUN_REMOTE         the default --remote URL
    DSA_RUN_DAEMON_SOCKET  the local daemon's Unix socket for --daemon (default /run/dsa-rund.sock)
    DSA_RUN_TOKEN          the default --token

  """

let usage =
  """
  Usage:
    dsa-run [--lang LANG] FILE [FILE...] [OPTIONS] [-- ARGS...]   compile and run a program in a box
    dsa-run [--lang LANG] FILE --challenge ID|DIR [--json]      grade a program on a challenge
    dsa-run languages [--json]                    languages, versions, and whether they are installed
    dsa-run challenges [--json] | show ID | starter ID --lang LANG [-o FILE] | --check [DIR...]
    dsa-run exec [OPTIONS] -- COMMAND [ARGS...]   run an argv in a box
    dsa-run doctor [--json]                       report this host's sandbox support
    dsa-run COMMAND --help                        the options of one command
    dsa-run --version                             this tool's version

  """
  + runOptionsHelp + execOptionsHelp + environmentHelp + exitCodesHelp

/// `--help` (or `-h`) anywhere in a command's arguments, before "--".
func asksForHelp(_ arguments: [String]) -> Bool {
  for argument in arguments {
    if argument == "--" { return false }
    if argument == "--help" || argument == "-h" { return true }
  }
  return false
}

/// Prints a command's help and exits 0.
func printHelp(_ text: String) -> Never {
  print(text + exitCodesHelp)
  finish(0)
}

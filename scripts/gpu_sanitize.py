#!/usr/bin/env python3
"""Runs the CUDA test programs under NVIDIA compute-sanitizer and summarises what each tool found.

Usage (on a machine with an NVIDIA GPU, after `cmake --build --preset cuda`):
    python3 scripts/gpu_sanitize.py [--build build/cuda] [--tools memcheck,racecheck,initcheck,synccheck]
                                    [--tests REGEX] [--exclude REGEX]
                                    [--only PROGRAM[:TOOL[+TOOL...]],...] [--skip PROGRAM[:TOOL[+TOOL...]],...]
                                    [--cuda-cases-only] [--split auto|cases|suites|none] [--split-programs PROGRAM,...]
                                    [--cases REGEX]
                                    [--jobs 4] [--gpus auto|N|ID,...] [--timeout 900] [--budget SECONDS]
                                    [--omp-threads 2]
                                    [--out sanitize-logs] [--resume] [--resume-from SUMMARY.json ...]
                                    [--order-from SUMMARY.json ...] [--json FILE] [--strict-racecheck]
                                    [--list-jobs] [--self-test]

Every test program that CTest runs directly (not the CLI checks, which are CMake scripts, nor
the Python checks) runs once per tool, with the arguments, environment and working folder CTest
gives it. Runs go in parallel: --jobs at once in all, spread over the GPUs (--gpus).

GPUs. Each job sees one GPU (CUDA_VISIBLE_DEVICES), the one with the fewest jobs running when it
starts, so the jobs of a machine with several GPUs spread over all of them. --gpus auto (the
default) takes the GPUs in CUDA_VISIBLE_DEVICES when it is set, else those nvidia-smi lists;
--gpus N takes the first N of those; --gpus 0,2 names them. A distributed program's ranks all
share its job's GPU. Each record and log says which GPU ran it.

Jobs. A job is one program (or one of its test cases) under one tool. --only and --skip pick
jobs by CTest name (a shell pattern such as 'test_s*' works) and, after a colon, by tool:
`--only test_solvers:memcheck,test_ell:racecheck+initcheck`. A program named without tools
means all of --tools.

Splitting. --split cases runs each Boost.Test case of a program as its own job
(`--run_test=SUITE/CASE`, read from the program's `--list_content`); --split suites runs each
top-level suite (or top-level case) as one. --split auto (the default) splits the programs known
to need more than a few minutes instrumented (SPLIT_BY_DEFAULT below, and those named by
--split-programs) by case, and runs the others whole. Each job pays the tool's start and the
instrumentation of the program's kernels again, so splitting a short program costs time. --cases REGEX keeps only the cases whose SUITE/CASE path matches. With
--cuda-cases-only a split program runs the same cases as a whole run would: those under a
top-level test unit whose name contains "Cuda", where the program has such units.

Results. Each job's full report goes to OUT/TOOL/PROGRAM.log, or OUT/TOOL/PROGRAM/CASE.log for a
split program; a log that is already there is kept, renamed PROGRAM.1.log and so on. After each
job OUT/summary.json is rewritten, so a run that is stopped keeps what it finished. The end of
the run prints one table, program x tool, with per cell: clean, N errors, N hazards (racecheck
warnings), failed (the program failed with no sanitizer error), timed out, or not run (with a
count of cases for a split program). A program is clean under a tool only when every one of its
cases is.

Spreading the work over several runs. --budget SECONDS bounds the whole run: jobs not started
by then are not run, and a job still running then is stopped and counted as not run.
--timeout bounds each job: a job that reaches it is recorded as timed out. --resume reads
OUT/summary.json (and --resume-from each FILE, such as the summary an earlier device call brought
back; a FILE that is not there is only warned about) and leaves out every job already recorded
there as finished (clean or not); the new summary holds the old records and the new ones. Jobs
that were stopped or never ran are run again, and so are jobs that timed out, when --timeout is
now longer than they ran. A job once stopped by the budget after S seconds starts only with more
than 1.2 S left.

Order. The slowest jobs start first, so that none ends the run alone: a job's expected time is
the longest of what a --resume summary says it needed at least, CTest's last time for its
program (divided among its cases), and what it took in the summaries named by --order-from
(another machine's or another code's run; those only order the jobs and leave none out).

Counted separately. A failed CUDA API call is an error for compute-sanitizer. A report that the
call failed with cudaErrorMemoryAllocation ("out of memory"; CUDA_ERROR_OUT_OF_MEMORY from the
driver API) is counted as an expected out-of-memory API error instead: test_size_limits asks for
2^57 bytes on purpose (out_of_memory/allocation_failure_becomes_out_of_memory), and memcheck
reports the failed cudaMalloc and Kokkos's cudaGetLastError after it. Every other report still
counts, and a program that fails is not clean whatever the tool says. racecheck also reports
warnings (hazards the tool cannot prove harmful): Kokkos 3.4.1's own ParallelReduce gives many
(shared/probes/README.md). They are listed by kernel, and do not fail the run unless
--strict-racecheck is given.

A program that makes no CUDA call at all (the Matrix Market reader's tests) ends with the tool's
"Target application terminated before first instrumented API call" and exit code 255, whatever
the program did. Such a run counts as "no GPU work" when Boost.Test's own lines say the program
passed, and as failed otherwise.

For the sanitizer runs ARAIOS_REPRO_ROLE and ARAIOS_REPRO_HASHES are left out of the environment:
test_repro_spmv then compares its backends within the process only, instead of writing (or, in
test_repro_spmv_2_threads, reading) the hash table of a whole run in the build tree, which a run
of some cases would overwrite with a partial one.

Exit code: 0 every selected program x tool is clean, 1 otherwise (timed out or not run
included), 2 bad usage or no compute-sanitizer. --list-jobs prints the jobs and runs none;
--self-test checks the report parsing and the summary on made-up reports (no GPU needed).
"""
import argparse
import concurrent.futures
import fnmatch
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time

TOOLS = ("memcheck", "racecheck", "initcheck", "synccheck")

# Each tool's options beyond --tool. memcheck also checks for device memory never freed.
TOOL_OPTIONS = {
    "memcheck": ["--leak-check", "full"],
    "racecheck": ["--racecheck-report", "analysis"],
    "initcheck": [],
    "synccheck": [],
}

# Programs that take more than a few minutes under a tool: run case by case with --split auto.
# (Shell patterns: the distributed programs, one per rank count, each run a few long cases.)
SPLIT_BY_DEFAULT = ("test_solvers", "test_segmented", "test_spmv_modes", "test_repro_spmv",
                    "test_repro_spmv_2_threads", "test_canonical_orders", "test_distributed_*")

# Left out of every run's environment (see the module's description).
UNSET_ENVIRONMENT = ("ARAIOS_REPRO_ROLE", "ARAIOS_REPRO_HASHES")

# A job given less than this many seconds is not started.
MIN_START_SECONDS = 30

SUMMARY = re.compile(r"========= (ERROR|RACECHECK|LEAK) SUMMARY: (\d+) (?:errors?|hazards? displayed)"
                     r"(?: \((\d+) errors?, (\d+) warnings?\))?", re.M)
# A failed API call: 'Program hit cudaErrorMemoryAllocation (error 2) due to "out of memory" on
# CUDA API call to cudaMalloc.' These two are not anchored at the start of a line: the test
# program's own output, when it does not end in a newline, can come before them on the line.
API_ERROR = re.compile(r'========= Program hit (\w+) \(error (\d+)\) due to "([^"]*)" on CUDA API call to (\w+)', re.M)
EXPECTED_API_ERRORS = ("cudaErrorMemoryAllocation", "CUDA_ERROR_OUT_OF_MEMORY")
# The first line of any report: "========= " then text (the lines inside a report are indented).
REPORT_START = re.compile(r"^========= (?!COMPUTE-SANITIZER|(?:ERROR|LEAK|RACECHECK) SUMMARY|Target application"
                          r"|This tool|Error: process didn't terminate)\S", re.M)
# The function named in a report: racecheck's "Race reported between Read access at void
# Kokkos::Impl::...", memcheck's "at 0x1a0 in void araios::..." or "at araios::...+0x1a0 in file".
ACCESS_AT = re.compile(r"^=========\s+.*?\bat (?:0x[0-9a-f]+ in )?((?:void )?[A-Za-z_][\w:]*<.+|(?:void )?[A-Za-z_][\w:]*\(.*)$",
                       re.M)
# Inside a Kokkos launch, the pattern and the functor: "ParallelReduce<...CudaFunctorAdapter<araios::Impl::EmptyRows<"
# A program that makes no CUDA call (the Matrix Market reader's tests): the tool exits with 255
# whatever the program did, so the program's own verdict is read from Boost.Test's last lines.
NO_GPU_WORK = re.compile(r"^========= Error: Target application terminated before first instrumented API call", re.M)
BOOST_PASSED = re.compile(r'^(?:Test module "[^"]*" has passed|\*\*\* No errors detected)', re.M)
KOKKOS_FUNCTOR = re.compile(r"Kokkos::Impl::(Parallel(?:For|Reduce|Scan))<(?:Kokkos::Impl::CudaFunctorAdapter<)?([\w:]+)")


def count(n, word):
    """'1 error', '2 errors'."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def kernel_name(function):
    """A short name for a kernel: the Kokkos pattern and functor, or the function up to its arguments."""
    m = KOKKOS_FUNCTOR.search(function)
    if m:
        return f"{m.group(2)} (Kokkos {m.group(1)})"
    return re.split(r"[<(]", function.replace("void ", "", 1), maxsplit=1)[0]


# --- the programs -------------------------------------------------------------------------------

class Program:
    """One CTest test that runs a Boost.Test program: its command, environment and folder."""

    def __init__(self, name, command, environment, folder, executable):
        self.name, self.command, self.environment, self.folder = name, command, environment, folder
        self.executable = executable  # the Boost.Test program in the command (after mpiexec and its options)
        self.units = None             # [(SUITE/CASE path, enabled)] from --list_content, when listed
        self.listing_error = None


def boost_executable(command, build):
    """The first element of the command that is a program inside the build folder, else None."""
    roots = [(os.path.abspath, os.path.abspath(build) + os.sep), (os.path.realpath, os.path.realpath(build) + os.sep)]
    for part in command:
        if os.path.isfile(part) and os.access(part, os.X_OK) and any(f(part).startswith(r) for f, r in roots):
            return part
    return None


def ctest_programs(build):
    """The tests CTest would run as programs of this build."""
    out = subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1"], check=True,
                         capture_output=True, text=True).stdout
    programs = []
    for test in json.loads(out)["tests"]:
        command = test.get("command") or []
        if not command or not os.path.isfile(command[0]) or os.path.basename(command[0]).startswith(("cmake", "ctest")):
            continue
        executable = boost_executable(command, build)
        if executable is None:  # a script run by an interpreter (the include-layer checks)
            continue
        properties = {p["name"]: p["value"] for p in test.get("properties", [])}
        environment = dict(e.split("=", 1) for e in properties.get("ENVIRONMENT", []))
        programs.append(Program(test["name"], command, environment, properties.get("WORKING_DIRECTORY", build),
                                executable))
    return programs


def find_sanitizer():
    """compute-sanitizer from the PATH, else beside nvcc, else in /usr/local/cuda."""
    found = shutil.which("compute-sanitizer")
    if found:
        return found
    nvcc = shutil.which("nvcc")
    for folder in ([os.path.dirname(os.path.realpath(nvcc))] if nvcc else []) + ["/usr/local/cuda/bin"]:
        candidate = os.path.join(folder, "compute-sanitizer")
        if os.access(candidate, os.X_OK):
            return candidate
    return None


def previous_costs(build):
    """Seconds each test took in CTest's last run of this build (Testing/Temporary/CTestCostData.txt)."""
    costs = {}
    try:
        with open(os.path.join(build, "Testing", "Temporary", "CTestCostData.txt")) as f:
            for line in f:
                fields = line.split()
                if len(fields) == 3:
                    costs[fields[0]] = float(fields[2])
    except (OSError, ValueError):
        pass
    return costs


def visible_gpus():
    """The GPUs a job may be given: CUDA_VISIBLE_DEVICES's entries when it is set, else the indices
    nvidia-smi lists; [] when neither says (the jobs then see what the machine gives them)."""
    given = os.environ.get("CUDA_VISIBLE_DEVICES")
    if given is not None:
        return [g.strip() for g in given.split(",") if g.strip()]
    try:
        listed = subprocess.run(["nvidia-smi", "--query-gpu=index", "--format=csv,noheader"], capture_output=True,
                                text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [line.strip() for line in listed.splitlines() if line.strip().isdigit()]


def choose_gpus(option, available):
    """--gpus auto|N|ID,... against the GPUs available -> the list to spread the jobs over."""
    if option == "auto":
        return available
    if option.isdigit():
        n = int(option)
        if n < 1 or (available and n > len(available)):
            raise ValueError(f"--gpus {option}: expected 1 to {len(available) or 'the number of'} GPUs"
                             + (f" (this machine shows {', '.join(available)})" if available else ""))
        return available[:n] if available else [str(i) for i in range(n)]
    chosen = [g.strip() for g in option.split(",") if g.strip()]
    unknown = [g for g in chosen if available and g not in available]
    if not chosen or unknown:
        raise ValueError(f"--gpus {option}: expected auto, a count, or GPU ids from {', '.join(available) or 'nvidia-smi'}")
    return chosen


class GpuPool:
    """Hands each starting job the GPU with the fewest jobs running (on a tie, the first listed)."""

    def __init__(self, gpus):
        self.running = {g: 0 for g in gpus}
        self.lock = threading.Lock()

    def take(self):
        with self.lock:
            if not self.running:
                return None
            gpu = min(self.running, key=self.running.get)  # min keeps the first of equals
            self.running[gpu] += 1
            return gpu

    def give_back(self, gpu):
        if gpu is not None:
            with self.lock:
                self.running[gpu] -= 1


def run_environment(program, omp_threads):
    env = dict(os.environ)
    env.update(program.environment)
    for name in UNSET_ENVIRONMENT:
        env.pop(name, None)
    env.setdefault("OMP_NUM_THREADS", str(omp_threads))
    return env


# --- Boost.Test's list of test units ------------------------------------------------------------

def parse_listing(text):
    """Boost.Test's --list_content tree -> [(SUITE/CASE path, enabled)] for each leaf (a test case).

    One unit a line, four spaces of indent per level, '*' at the end when enabled; a unit is a
    suite when the next line is indented deeper. Lines of any other form are ignored."""
    entries = []
    for line in text.splitlines():
        m = re.match(r"^( *)([^\s:].*?)\s*$", line)
        if not m or len(m.group(1)) % 4 or ":" in m.group(2):
            continue
        name, enabled = m.group(2), m.group(2).endswith("*")
        entries.append((len(m.group(1)) // 4, name[:-1] if enabled else name, enabled))
    leaves, stack = [], []  # stack: (depth, name, enabled) of the enclosing suites
    for i, (depth, name, enabled) in enumerate(entries):
        while stack and stack[-1][0] >= depth:
            stack.pop()
        if len(stack) != depth:  # an indent that skips a level: not a listing
            return []
        if i + 1 < len(entries) and entries[i + 1][0] > depth:
            stack.append((depth, name, enabled))
        else:
            leaves.append(("/".join([s[1] for s in stack] + [name]), enabled and all(s[2] for s in stack)))
    return leaves


def list_units(program, omp_threads):
    """Fills program.units from `EXE --list_content` (Boost.Test prints it on stderr)."""
    try:
        listing = subprocess.run([program.executable, "--list_content"], cwd=program.folder,
                                 env=run_environment(program, omp_threads), capture_output=True, text=True,
                                 errors="replace", timeout=120, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as e:
        program.listing_error = str(e)
        return
    units = parse_listing(listing.stderr) or parse_listing(listing.stdout)
    if units:
        program.units = units
    else:
        program.listing_error = f"--list_content gave no test cases (exit {listing.returncode})"


def has_cuda_top_level(units):
    return any("Cuda" in path.split("/")[0] for path, _ in units)


def cuda_filter(program):
    """[--run_test=*Cuda*] when the Boost.Test program has top-level test units named for CUDA."""
    return ["--run_test=*Cuda*"] if program.units and has_cuda_top_level(program.units) else []


def program_cases(program, cuda_only):
    """The enabled test cases a whole run of the program runs (--cuda-cases-only applied)."""
    cases = [path for path, enabled in program.units if enabled]
    if cuda_only and has_cuda_top_level(program.units):
        cases = [c for c in cases if "Cuda" in c.split("/")[0]]
    return cases


def covers(run_test, case):
    """Whether a run of --run_test=RUN_TEST (a case or a suite, or None: the whole program) runs CASE."""
    return run_test is None or case == run_test or case.startswith(run_test + "/")


def already_finished(records, run_test, cases):
    """Whether earlier records (of one program under one tool) hold a finished run of RUN_TEST (a
    case, a suite, or None: the whole program): a run of it, of the whole program, of a suite
    around it, or of each of its cases."""
    done = [r for r in records if r["status"] == "finished"]
    if any(r.get("unit", "program") == "program" for r in done):
        return True
    parts = [r["run_test"] for r in done if r.get("unit", "program") != "program"]
    if run_test is not None and any(covers(p, run_test) for p in parts):
        return True
    inside = [c for c in cases or [] if covers(run_test, c)]
    return bool(inside) and all(any(covers(p, c) for p in parts) for c in inside)


# --- selection ----------------------------------------------------------------------------------

def parse_specs(values, option):
    """--only/--skip values -> [(program pattern, set of tools or None)]."""
    specs = []
    for value in values:
        for item in filter(None, (s.strip() for s in value.split(","))):
            program, _, tools = item.partition(":")
            chosen = set(filter(None, tools.split("+"))) if tools else None
            unknown = sorted((chosen or set()) - set(TOOLS))
            if not program or unknown:
                raise ValueError(f"{option} {item}: expected PROGRAM[:TOOL[+TOOL...]] with tools from {', '.join(TOOLS)}")
            specs.append((program, chosen))
    return specs


def spec_matches(spec, program, tool):
    pattern, tools = spec
    return fnmatch.fnmatchcase(program, pattern) and (tools is None or tool in tools)


# --- one job ------------------------------------------------------------------------------------

class Job:
    def __init__(self, program, tool, unit, run_test):
        self.program, self.tool, self.unit, self.run_test = program, tool, unit, run_test
        self.estimate = 0.0     # seconds, for the order
        self.lower_bound = 0.0  # seconds it is known to need at least (a previous run stopped after them)

    @property
    def label(self):
        return self.program.name + (f"[{self.run_test}]" if self.unit != "program" else "")

    def log_path(self, out):
        if self.unit == "program":
            return os.path.join(out, self.tool, self.program.name + ".log")
        safe = re.sub(r"[^A-Za-z0-9_.+-]+", "_", self.run_test).strip("_")[:120]
        digest = hashlib.sha1(self.run_test.encode()).hexdigest()[:8]
        return os.path.join(out, self.tool, self.program.name, f"{safe}-{digest}.log")

    def command(self, cuda_only):
        if self.unit == "program":
            return self.program.command + (cuda_filter(self.program) if cuda_only else [])
        return self.program.command + ["--run_test=" + self.run_test]


def keep_old_log(path):
    """Renames an existing log to NAME.1.log (or the first free number), so that no log is lost."""
    if not os.path.exists(path):
        return
    stem = path[:-len(".log")]
    n = 1
    while os.path.exists(f"{stem}.{n}.log"):
        n += 1
    os.rename(path, f"{stem}.{n}.log")


def parse_report(text):
    """What a compute-sanitizer report says: errors (expected out-of-memory API errors left out),
    racecheck warnings, those API errors, and the kernels named in reports."""
    error_summary = hazard_errors = warnings = 0
    summaries = 0
    for kind, total, errors, warns in SUMMARY.findall(text):
        summaries += 1
        if errors:  # racecheck: "N hazards displayed (E errors, W warnings)"
            hazard_errors += int(errors)
            warnings += int(warns)
        elif kind == "ERROR":
            error_summary += int(total)
    api_errors = API_ERROR.findall(text)
    expected = [call for name, _, _, call in api_errors if name in EXPECTED_API_ERRORS]
    other_api = [f"{name} on {call}" for name, _, _, call in api_errors if name not in EXPECTED_API_ERRORS]
    # The summary counts every API error: the expected ones come off it (and off it only, not off
    # racecheck's hazard count).
    errors = max(0, error_summary - len(expected)) + hazard_errors
    kernels = []
    if errors or warnings:
        device_lines = "\n".join(line for line in text.splitlines() if "Host Frame" not in line)
        kernels = sorted({kernel_name(k) for k in ACCESS_AT.findall(device_lines)})
    return {"errors": errors, "warnings": warnings, "expected_oom": len(expected), "expected_oom_calls": expected,
            "other_api_errors": other_api[:20], "reports": len(REPORT_START.findall(text)),
            "summary_seen": summaries > 0, "kernels": kernels,
            "no_gpu_work": bool(NO_GPU_WORK.search(text)), "program_passed": bool(BOOST_PASSED.search(text))}


class Runner:
    def __init__(self, sanitizer, args, deadline, gpus):
        self.sanitizer, self.args, self.deadline, self.gpus = sanitizer, args, deadline, gpus
        self.running = {}  # pid -> Popen
        self.stopping = False

    def stop_all(self):
        """Ends every running job (their process groups): the script itself was asked to stop."""
        self.stopping = True
        for process in list(self.running.values()):
            kill_group(process, grace=0)

    def run(self, job):
        """Runs one job; returns its record, or None when it was not started."""
        args = self.args
        limit, by_budget = args.timeout, False
        if self.stopping:
            return None
        if self.deadline:
            left = self.deadline - time.time()
            # A job stopped after S seconds before needs more: it is not started with S (and some) left.
            if left < MIN_START_SECONDS or left < 1.2 * job.lower_bound:
                return None
            if left < limit:
                limit, by_budget = left, True
        command = job.command(args.cuda_cases_only)
        argv = [self.sanitizer, "--tool", job.tool, *TOOL_OPTIONS[job.tool], "--target-processes", "all",
                "--print-limit", "200", *command]
        env = run_environment(job.program, args.omp_threads)
        gpu = self.gpus.take()
        try:
            return self.run_on(job, argv, command, env, gpu, limit, by_budget)
        finally:
            self.gpus.give_back(gpu)

    def run_on(self, job, argv, command, env, gpu, limit, by_budget):
        args = self.args
        if gpu is not None:
            env["CUDA_VISIBLE_DEVICES"] = gpu
        log_path = job.log_path(args.out)
        os.makedirs(os.path.dirname(log_path), exist_ok=True)
        keep_old_log(log_path)
        start = time.time()
        with open(log_path, "w") as log:
            log.write(f"# gpu_sanitize: {shlex.join(argv)}\n# gpu_sanitize: in {job.program.folder}, "
                      + (f"GPU {gpu}, " if gpu is not None else "") +
                      f"OMP_NUM_THREADS={env.get('OMP_NUM_THREADS')}, "
                      f"{' '.join(f'{k}={v}' for k, v in sorted(job.program.environment.items()) if k not in UNSET_ENVIRONMENT)}"
                      f"; started {time.strftime('%Y-%m-%d %H:%M:%S')}, at most {limit:.0f} s\n")
            log.flush()
            # In a session of its own, so that a timeout ends the test program too, not only the tool.
            process = subprocess.Popen(argv, cwd=job.program.folder, env=env, stdout=log, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL, start_new_session=True)
            self.running[process.pid] = process
            try:
                code = process.wait(timeout=limit)
                status = "finished"
            except subprocess.TimeoutExpired:
                kill_group(process)
                code = None
                status = "stopped" if by_budget or self.stopping else "timed out"
            finally:
                kill_group(process, grace=0)  # anything the program left behind
                self.running.pop(process.pid, None)
            if self.stopping and status == "finished" and code is not None and code < 0:
                status, code = "stopped", None
            seconds = time.time() - start
            log.write(f"\n# gpu_sanitize: {status}" + (f", exit {code}" if code is not None else "")
                      + f", {seconds:.1f} s\n")
        with open(log_path, errors="replace") as f:
            report = parse_report(f.read())
        record = {"program": job.program.name, "tool": job.tool, "unit": job.unit, "run_test": job.run_test,
                  "status": status, "exit": code, "seconds": round(seconds, 1),
                  "started": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(start)),
                  "log": os.path.relpath(log_path, args.out), "command": command, "gpu": gpu}
        record.update(report)
        return record


def kill_group(process, grace=5.0):
    """SIGTERM to the job's process group, SIGKILL after GRACE seconds (at once when 0); waits for the tool."""
    def signal_group(sig):
        try:
            os.killpg(process.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
    if grace > 0:
        signal_group(signal.SIGTERM)
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
    signal_group(signal.SIGKILL)  # the tool, or what it left running
    process.wait()


# --- the summary --------------------------------------------------------------------------------

def finished(record):
    return record["status"] == "finished"


def no_gpu_work(record):
    """The program ran to a pass without one CUDA call: nothing for the tool to check."""
    return finished(record) and record.get("no_gpu_work", False) and record.get("program_passed", False)


def program_failed(record):
    return finished(record) and record["exit"] != 0 and record["errors"] == 0 and not no_gpu_work(record)


def record_clean(record, strict_racecheck):
    return (finished(record) and (record["exit"] == 0 or no_gpu_work(record)) and record["errors"] == 0
            and not (strict_racecheck and record["warnings"] > 0))


def load_summary(path, out):
    """The records and case lists of an earlier summary; log paths made relative to OUT."""
    with open(path) as f:
        data = json.load(f)
    records = data["records"] if isinstance(data, dict) else data
    folder = os.path.dirname(os.path.abspath(path))
    for r in records:
        if "program" not in r:  # the --json list of the script's first version: whole programs
            r.update(program=r.pop("test"), unit="program", run_test=None, expected_oom=0,
                     status="not run" if r.get("not_run") else "timed out" if r.get("timed_out") else "finished")
        if r.get("log") and os.path.realpath(folder) != os.path.realpath(out):
            r["log"] = os.path.relpath(os.path.join(folder, r["log"]), out)
    return records, (data.get("case_lists", {}) if isinstance(data, dict) else {})


def record_key(r):
    return (r["program"], r["tool"], r.get("run_test"))


def merge_records(old, new):
    """Old records, with each key's newer record in place of the older one."""
    by_key = {}
    for r in old + new:
        by_key[record_key(r)] = r
    return list(by_key.values())


def write_json(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1)
    os.replace(tmp, path)


def cell(records, program, tool, cases, strict_racecheck):
    """(text, clean) for one program under one tool, from every record of it.

    cases: the test cases a whole run runs, when known. A finished run of the whole program
    stands for all of them; otherwise each case takes the newest finished record that covers it
    (a run of it, or of its suite), else the newest record."""
    mine = [r for r in records if r["program"] == program and r["tool"] == tool]
    if not mine:
        return None, False
    whole = [r for r in mine if r.get("unit", "program") == "program"]
    parts = [r for r in mine if r.get("unit", "program") != "program"]
    done_whole = [r for r in whole if finished(r)]
    if done_whole or not parts:
        chosen = [max(done_whole or whole, key=lambda r: r.get("started", ""))]
        units = {None: chosen[0]}
    else:
        keys = cases if cases else sorted({r["run_test"] for r in parts})
        units = {}
        for case in keys:
            covering = sorted((r for r in parts if covers(r["run_test"], case)), key=lambda r: r.get("started", ""))
            done = [r for r in covering if finished(r)]
            units[case] = (done or covering or [None])[-1]
        chosen = list({id(r): r for r in units.values() if r is not None}.values())
    errors = sum(r["errors"] for r in chosen)
    warnings = sum(r["warnings"] for r in chosen)
    oom = sum(r.get("expected_oom", 0) for r in chosen)
    n = len(units)
    of = (lambda k: f" ({k}/{n} cases)") if n > 1 or None not in units else (lambda k: "")
    not_run = sum(1 for r in units.values() if r is None or r["status"] in ("stopped", "not run"))
    timed_out = sum(1 for r in units.values() if r is not None and r["status"] == "timed out")
    failed = sum(1 for r in units.values() if r is not None and program_failed(r))
    host_only = bool(chosen) and all(no_gpu_work(r) for r in chosen)
    parts_text = []
    if errors:
        parts_text.append(count(errors, "error"))
    if failed:
        parts_text.append("failed" + of(failed))
    if timed_out:
        parts_text.append("timed out" + of(timed_out))
    if not_run:
        parts_text.append("not run" + of(not_run))
    clean = not parts_text and not (strict_racecheck and warnings)
    if warnings:
        parts_text.append(count(warnings, "hazard"))
    text = ", ".join(parts_text) if parts_text else "no GPU work" if host_only else "clean"
    if oom:
        text += f" (+{oom} expected OOM)"
    return text, clean


def print_table(rows, tools, records, case_lists, selected, strict_racecheck):
    """The program x tool table; returns whether every selected cell is clean."""
    table, all_clean = [], True
    for program in rows:
        line = [program]
        for tool in tools:
            text, clean = cell(records, program, tool, case_lists.get(program), strict_racecheck)
            if (program, tool) in selected:
                all_clean &= clean
                text = text or "not run"
            line.append(text or "-")
        table.append(line)
    header = ["program"] + list(tools)
    widths = [max(len(r[i]) for r in table + [header]) for i in range(len(header))]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    for r in table:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
    return all_clean


# --- self-test ----------------------------------------------------------------------------------

def self_test():
    """Checks the parsing and the summary on made-up reports in compute-sanitizer's format. Runs no program."""
    oom = ("========= Program hit cudaErrorMemoryAllocation (error 2) due to \"out of memory\" on CUDA API call to {}.\n"
           "=========     Saved host backtrace up to driver entry point at error\n"
           "=========         Host Frame: araios::refuseAllocationFailure at size_limits.cpp:40 [0x1d2e0] in test_size_limits\n"
           "=========\n")
    invalid = ("========= Invalid __global__ read of size 8 bytes\n"
               "=========     at void araios::Impl::csr_scalar_kernel<double, int, int>(const double *, double *)+0x1b0\n"
               "=========     by thread (95,0,0) in block (3,0,0)\n=========\n")
    kokkos = ("void Kokkos::Impl::cuda_parallel_launch_local_memory<Kokkos::Impl::ParallelReduce<araios::Impl::RowLengthSquares"
              "<int>, Kokkos::RangePolicy<Kokkos::Cuda>, Kokkos::InvalidType, Kokkos::Cuda>>(...)+0x1c60")
    race = ("========= Warning: (Warp Level Programming) Potential RAW hazard detected at __shared__ 0x88 in block (1,0,0) :\n"
            f"=========     Write Thread (31,0,0) at {kokkos}\n=========     Read Thread (0,0,0) at {kokkos}\n=========\n")
    memcheck_end = "========= LEAK SUMMARY: 0 bytes leaked in 0 allocations\n========= ERROR SUMMARY: {} errors\n"
    checks = []

    def check(what, got, want):
        checks.append(got == want)
        if got != want:
            print(f"self-test: {what}: got {got!r}, expected {want!r}")

    r = parse_report("========= COMPUTE-SANITIZER\n" + oom.format("cudaMalloc") + oom.format("cudaGetLastError")
                     + memcheck_end.format(2))
    check("out-of-memory pair", (r["errors"], r["expected_oom"], r["expected_oom_calls"]),
          (0, 2, ["cudaMalloc", "cudaGetLastError"]))
    r = parse_report(oom.format("cudaMalloc") + oom.format("cudaGetLastError") + invalid + memcheck_end.format(3))
    check("out-of-memory pair and an invalid read", (r["errors"], r["expected_oom"], r["kernels"]),
          (1, 2, ["araios::Impl::csr_scalar_kernel"]))
    r = parse_report('========= Program hit cudaErrorInvalidValue (error 1) due to "invalid argument" on CUDA API call '
                     "to cudaMemcpyAsync.\n=========\n" + memcheck_end.format(1))
    check("another API error", (r["errors"], r["other_api_errors"]), (1, ["cudaErrorInvalidValue on cudaMemcpyAsync"]))
    r = parse_report(race * 3 + "========= RACECHECK SUMMARY: 3 hazards displayed (0 errors, 3 warnings)\n")
    check("racecheck warnings", (r["errors"], r["warnings"], r["kernels"]),
          (0, 3, ["araios::Impl::RowLengthSquares (Kokkos ParallelReduce)"]))
    r = parse_report(oom.format("cudaMalloc") + "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n")
    check("a racecheck error is not taken off by an out-of-memory report", r["errors"], 1)
    check("a report cut short", parse_report(invalid + invalid)["reports"], 2)
    host = ('========= COMPUTE-SANITIZER\nRunning 7 test cases...\n\nTest module "atomic_file" has passed with:\n'
            "  7 test cases out of 7 passed\n\n========= Error: Target application terminated before first "
            "instrumented API call\n")
    r = parse_report(host)
    check("a program with no CUDA call", (r["errors"], r["no_gpu_work"], r["program_passed"]), (0, True, True))
    r = parse_report(host.replace('has passed with', 'has failed with'))
    check("a failing program with no CUDA call", (r["no_gpu_work"], r["program_passed"]), (True, False))

    pool = GpuPool(["0", "1", "2"])
    taken = [pool.take() for _ in range(4)]
    pool.give_back("1")
    check("jobs spread over the GPUs", (taken, pool.take(), pool.take()), (["0", "1", "2", "0"], "1", "1"))
    check("no GPU listed", GpuPool([]).take(), None)
    check("--gpus", [choose_gpus(o, ["0", "1", "2", "3"]) for o in ("auto", "2", "3,1")],
          [["0", "1", "2", "3"], ["0", "1"], ["3", "1"]])
    for bad in ("5", "0", "7", ""):
        try:
            choose_gpus(bad, ["0", "1", "2", "3"])
            check(f"--gpus {bad!r} is refused", "accepted", "refused")
        except ValueError:
            check(f"--gpus {bad!r} is refused", "refused", "refused")

    listing = ("offsets_32*\n    csr<Kokkos__Cuda>*\nout_of_memory*\n    inner*\n        a<Kokkos__Serial_ double_ int_ int>*\n"
               "        off\n    b<Kokkos__Cuda>*\ntop_case*\n")
    check("listing", parse_listing(listing),
          [("offsets_32/csr<Kokkos__Cuda>", True), ("out_of_memory/inner/a<Kokkos__Serial_ double_ int_ int>", True),
           ("out_of_memory/inner/off", False), ("out_of_memory/b<Kokkos__Cuda>", True), ("top_case", True)])
    units = parse_listing("every<Config<Kokkos__Serial_ double>>*\nevery<Config<Kokkos__Cuda_ double>>*\nhost_only*\n")
    p = Program("t", ["t"], {}, ".", "t")
    p.units = units
    check("CUDA cases", (program_cases(p, True), cuda_filter(p)), (["every<Config<Kokkos__Cuda_ double>>"], ["--run_test=*Cuda*"]))

    def rec(run_test, status="finished", errors=0, unit="case", started="1"):
        return {"program": "t", "tool": "memcheck", "unit": unit, "run_test": run_test, "status": status, "exit": 0,
                "errors": errors, "warnings": 0, "expected_oom": 0, "started": started}
    host = dict(rec(None, unit="program"), exit=255, no_gpu_work=True, program_passed=True)
    check("no GPU work is clean", (cell([host], "t", "memcheck", None, False), record_clean(host, True)),
          (("no GPU work", True), True))
    host_failed = dict(host, program_passed=False)
    check("no GPU work and a failure", (cell([host_failed], "t", "memcheck", None, False), record_clean(host_failed, False)),
          (("failed", False), False))
    cases = ["s/a", "s/b", "c"]
    records = [rec("s/a"), rec("s/b", "timed out"), rec("c", errors=2)]
    check("cell of cases", cell(records, "t", "memcheck", cases, False), ("2 errors, timed out (1/3 cases)", False))
    check("cell of cases, one not run", cell([rec("s/a"), rec("c")], "t", "memcheck", cases, False),
          ("not run (1/3 cases)", False))
    check("a suite covers its cases", cell([rec("s", unit="suite"), rec("c")], "t", "memcheck", cases, False), ("clean", True))
    check("a finished whole run stands for every case",
          cell([rec(None, unit="program"), rec("s/b", "timed out")], "t", "memcheck", cases, False), ("clean", True))
    check("resume: finished cases", [already_finished(records, c, cases) for c in cases + ["s", None]],
          [True, False, True, False, False])
    check("resume: all cases of a suite", already_finished([rec("s/a"), rec("s/b")], "s", cases), True)
    print(f"self-test: {sum(checks)} of {len(checks)} checks pass")
    return 0 if all(checks) else 1


# --- main ---------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog="See the top of scripts/gpu_sanitize.py for what each part does.")
    parser.add_argument("--build", default="build/cuda", help="the cuda preset's build folder")
    parser.add_argument("--tools", default=",".join(TOOLS), help="comma-separated, from " + ", ".join(TOOLS))
    parser.add_argument("--tests", default=".", help="only tests whose name matches this regular expression")
    parser.add_argument("--exclude", default="^$", help="leave out tests whose name matches this regular expression")
    parser.add_argument("--only", action="append", default=[], metavar="PROGRAM[:TOOL[+TOOL]],...",
                        help="run only these programs (CTest names or shell patterns), under these tools")
    parser.add_argument("--skip", action="append", default=[], metavar="PROGRAM[:TOOL[+TOOL]],...",
                        help="leave out these programs, or these programs under these tools")
    parser.add_argument("--split", choices=("auto", "cases", "suites", "none"), default="auto",
                        help="run programs case by case, top-level suite by suite, or whole; auto: case by case "
                             "for " + ", ".join(SPLIT_BY_DEFAULT) + ", whole for the others")
    parser.add_argument("--split-programs", action="append", default=[], metavar="PROGRAM,...",
                        help="with --split auto, also run these programs (CTest names or shell patterns) case by case")
    parser.add_argument("--cases", default=None, metavar="REGEX",
                        help="in split programs, only the cases whose SUITE/CASE path matches")
    parser.add_argument("--jobs", type=int, default=4, help="runs at once, over all the GPUs")
    parser.add_argument("--gpus", default="auto",
                        help="GPUs to spread the jobs over: auto (CUDA_VISIBLE_DEVICES, else every GPU nvidia-smi "
                             "lists), a count N (the first N of those), or ids such as 0,2")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per job; then it is recorded as timed out")
    parser.add_argument("--budget", type=float, default=0,
                        help="seconds for the whole run: jobs not started by then are not run, and jobs still "
                             "running then are stopped and counted as not run (0: no limit)")
    parser.add_argument("--omp-threads", type=int, default=2, help="OMP_NUM_THREADS of each run, unless its test sets it")
    parser.add_argument("--out", default="sanitize-logs", help="folder for the logs and summary.json")
    parser.add_argument("--resume", action="store_true",
                        help="leave out the jobs OUT/summary.json records as finished, and keep its records")
    parser.add_argument("--resume-from", action="append", default=[], metavar="SUMMARY.json",
                        help="the same for another run's summary (implies --resume; may be repeated)")
    parser.add_argument("--order-from", action="append", default=[], metavar="SUMMARY.json",
                        help="an earlier run's summary whose durations order this run's jobs, slowest first "
                             "(nothing is left out for it; may be repeated)")
    parser.add_argument("--json", help="also write the summary to this file")
    parser.add_argument("--cuda-cases-only", action="store_true",
                        help="in programs whose test cases are instantiated per backend, run only the CUDA ones "
                             "(Boost.Test --run_test=*Cuda*): the host cases launch no kernel")
    parser.add_argument("--strict-racecheck", action="store_true", help="racecheck warnings fail the run too")
    parser.add_argument("--list-jobs", action="store_true", help="print the jobs that would run, and run none")
    parser.add_argument("--self-test", action="store_true", help="check the report parsing on made-up reports, and exit")
    args = parser.parse_args()
    if args.self_test:
        return self_test()

    def usage_error(message):
        print(f"gpu_sanitize: {message}", file=sys.stderr)
        return 2

    tools = [t for t in args.tools.split(",") if t]
    unknown = [t for t in tools if t not in TOOLS]
    if unknown:
        return usage_error(f"unknown tool {', '.join(unknown)}; expected some of {', '.join(TOOLS)}")
    try:
        only, skip = parse_specs(args.only, "--only"), parse_specs(args.skip, "--skip")
        case_pattern = re.compile(args.cases) if args.cases else None
    except (ValueError, re.error) as e:
        return usage_error(str(e))
    sanitizer = find_sanitizer()
    if not sanitizer and not args.list_jobs:
        return usage_error("compute-sanitizer is neither on the PATH nor beside nvcc (it comes with the CUDA toolkit)")
    if not os.path.isfile(os.path.join(args.build, "CTestTestfile.cmake")):
        return usage_error(f"{args.build} is not a configured build folder; expected build/cuda after "
                           "`cmake --build --preset cuda`")
    start = time.time()
    deadline = start + args.budget if args.budget > 0 else 0

    every = ctest_programs(args.build)
    for pattern, _ in only + skip:
        if not any(fnmatch.fnmatchcase(p.name, pattern) for p in every):
            return usage_error(f"'{pattern}' (--only/--skip) names no test program of {args.build}; they are: "
                               + " ".join(p.name for p in every))
    split_patterns = list(SPLIT_BY_DEFAULT) + [p for v in args.split_programs for p in v.split(",") if p]
    programs = [p for p in every if re.search(args.tests, p.name) and not re.search(args.exclude, p.name)]
    pairs = [(p, t) for p in programs for t in tools
             if (not only or any(spec_matches(s, p.name, t) for s in only))
             and not any(spec_matches(s, p.name, t) for s in skip)]
    if not pairs:
        return usage_error(f"no test program of {args.build} is left by --tests/--exclude/--only/--skip")
    programs = [p for p in programs if any(q is p for q, _ in pairs)]

    def split_of(program):
        if any(a.startswith("--run_test") for a in program.command):
            return "none"  # CTest already picks its cases
        if args.split == "auto":
            return "cases" if any(fnmatch.fnmatchcase(program.name, p) for p in split_patterns) else "none"
        return args.split

    # The test cases of each program that is split, or filtered to its CUDA cases.
    for program in programs:
        if split_of(program) != "none" or args.cuda_cases_only:
            list_units(program, args.omp_threads)
            if program.listing_error and split_of(program) != "none":
                print(f"gpu_sanitize: {program.name}: {program.listing_error}; it runs whole", file=sys.stderr)

    old_records, case_lists = [], {}
    if args.resume or args.resume_from:
        for path in ([os.path.join(args.out, "summary.json")] if args.resume else []) + args.resume_from:
            if not os.path.isfile(path):
                if path in args.resume_from:
                    print(f"gpu_sanitize: --resume-from {path}: no such file; nothing taken from it", file=sys.stderr)
                continue
            try:
                records, lists = load_summary(path, args.out)
            except (OSError, ValueError, KeyError) as e:
                return usage_error(f"cannot read {path}: {e}")
            old_records = merge_records(old_records, records)
            case_lists.update(lists)
    for program in programs:
        if program.units:
            case_lists[program.name] = program_cases(program, args.cuda_cases_only)

    cost = previous_costs(args.build)
    durations = {}  # (program, tool, run_test) -> the longest any earlier run of it took
    for path in args.order_from:
        try:
            records, _ = load_summary(path, args.out)
        except (OSError, ValueError, KeyError) as e:
            return usage_error(f"--order-from {path}: cannot read it: {e}")
        for r in records:
            if r["status"] != "not run":
                key = record_key(r)
                durations[key] = max(durations.get(key, 0.0), r["seconds"])
    jobs, kept_timed_out = [], []
    for program, tool in pairs:
        split = split_of(program) if program.units else "none"
        if split == "none":
            units = [("program", None)]
        else:
            cases = [c for c in case_lists[program.name] if not case_pattern or case_pattern.search(c)]
            if split == "suites":
                tops = []
                for c in cases:
                    top = c.split("/")[0]
                    if top not in tops:
                        tops.append(top)
                units = [("suite" if any(c.startswith(t + "/") for c in cases) else "case", t) for t in tops]
            else:
                units = [("case", c) for c in cases]
        mine = [r for r in old_records if r["program"] == program.name and r["tool"] == tool]
        for unit, run_test in units:
            if already_finished(mine, run_test, case_lists.get(program.name)):
                continue  # --resume
            job = Job(program, tool, unit, run_test)
            same = [r for r in mine if r.get("run_test") == run_test and r.get("unit", "program") == unit]
            stopped = [r["seconds"] for r in same if r["status"] == "stopped"]
            timed_out = [r["seconds"] for r in same if r["status"] == "timed out"]
            if timed_out and max(timed_out) >= args.timeout:
                kept_timed_out.append(job)  # it would time out again: its record stays
                continue
            job.lower_bound = max(stopped + timed_out, default=0.0)
            whole = durations.get((program.name, tool, None), 0.0)
            job.estimate = max(job.lower_bound, cost.get(program.name, 0.0) / max(1, len(units)),
                               durations.get((program.name, tool, run_test), whole / max(1, len(units))))
            jobs.append(job)
    # The slowest first (by an earlier run's record or CTest's), so that they do not end the run alone.
    jobs.sort(key=lambda j: -j.estimate)

    if args.list_jobs:
        for job in jobs:
            expected = f", about {job.estimate:.0f} s" if job.estimate else ""
            print(f"{job.tool:<10} {job.label}  ({shlex.join(job.command(args.cuda_cases_only)[1:])}{expected})")
        print(f"{len(jobs)} jobs", file=sys.stderr)
        return 0

    try:
        gpus = choose_gpus(args.gpus, visible_gpus())
    except ValueError as e:
        return usage_error(str(e))
    os.makedirs(args.out, exist_ok=True)
    version = subprocess.run([sanitizer, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    version = version[-1] if version else "unknown version"
    left = len({(j.program.name, j.tool) for j in jobs})
    print(f"compute-sanitizer: {version}; {len(jobs)} jobs ({left} of {len(pairs)} program x tool"
          + (", the others already finished" if left < len(pairs) else "") + f"), {args.jobs} at once"
          + (f" over GPU{'s' if len(gpus) > 1 else ''} {','.join(gpus)}" if gpus else "") + ", "
          f"{args.timeout:.0f} s each at most" + (f", {args.budget:.0f} s in all" if args.budget else ""), flush=True)

    new_records = []
    lock = threading.Lock()
    summary_path = os.path.join(args.out, "summary.json")

    def save():
        data = {"sanitizer": version, "build": os.path.abspath(args.build), "updated": time.strftime("%Y-%m-%dT%H:%M:%S"),
                "case_lists": case_lists, "records": merge_records(old_records, new_records)}
        write_json(summary_path, data)
        if args.json:
            write_json(args.json, data)

    runner = Runner(sanitizer, args, deadline, GpuPool(gpus))
    previous_handler = signal.signal(signal.SIGTERM, lambda *_: runner.stop_all())
    not_started = []
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = {pool.submit(runner.run, job): job for job in jobs}
            try:
                for future in concurrent.futures.as_completed(futures):
                    r = future.result()
                    if r is None:
                        not_started.append(futures[future])
                        continue
                    with lock:
                        new_records.append(r)
                        save()
                    state = {"finished": "clean" if record_clean(r, args.strict_racecheck) else "NOT CLEAN",
                             "timed out": "TIMEOUT", "stopped": "STOPPED"}[r["status"]]
                    extra = (f", {count(r['warnings'], 'warning')}" if r["warnings"] else "") + \
                            (f", {r['expected_oom']} expected OOM" if r["expected_oom"] else "")
                    print(f"  {r['tool']:<10} {futures[future].label[:100]:<40} {state:<9} {count(r['errors'], 'error')}{extra}, "
                          f"exit {r['exit']}, {r['seconds']:.0f} s", flush=True)
            except KeyboardInterrupt:
                runner.stop_all()
                for f in futures:
                    f.cancel()
                raise
    except KeyboardInterrupt:
        print("gpu_sanitize: interrupted; the summary keeps the jobs that finished", file=sys.stderr)
    finally:
        signal.signal(signal.SIGTERM, previous_handler)
        with lock:
            save()

    records = merge_records(old_records, new_records)
    rows = [p.name for p in programs] + sorted({r["program"] for r in records} - {p.name for p in programs})
    columns = list(tools) + [t for t in TOOLS if t not in tools and any(r["tool"] == t for r in records)]
    print(f"\nsummary ({summary_path}; {len(new_records)} jobs run now, {len(not_started)} not started"
          + (", earlier runs' records included" if old_records else "") + ")")
    all_clean = print_table(rows, columns, records, case_lists, {(p.name, t) for p, t in pairs}, args.strict_racecheck)
    print("hazards: racecheck warnings, not errors" + ("" if not args.strict_racecheck else " (failing: --strict-racecheck)")
          + "; expected OOM: cudaErrorMemoryAllocation API errors, not counted as errors")

    for tool in columns:
        mine = [r for r in records if r["tool"] == tool]
        kernels = sorted({k for r in mine for k in r["kernels"]})
        if kernels:
            print(f"  {tool}: reported in")
            for k in kernels[:20]:
                print(f"    {k[:160]}")
            if len(kernels) > 20:
                print(f"    and {len(kernels) - 20} more")
        bad = [r for r in mine if r["status"] == "finished" and not record_clean(r, args.strict_racecheck)]
        for r in bad[:20]:
            what = count(r["errors"], "error") if r["errors"] else f"exit {r['exit']}"
            print(f"  {tool}: {r['program']}" + (f"[{r['run_test']}]" if r.get("run_test") and r.get("unit") != "program" else "")
                  + f": {what}" + (f" ({'; '.join(r['other_api_errors'][:3])})" if r.get("other_api_errors") else "")
                  + f", log {r['log']}")
        partial = [r for r in mine if r["status"] != "finished" and r.get("reports")]
        for r in partial[:20]:
            print(f"  {tool}: {r['program']}" + (f"[{r['run_test']}]" if r.get("unit") != "program" else "")
                  + f": {r['status']} after {count(r['reports'], 'report')} (see {r['log']})")
    if kept_timed_out:
        print(f"not run again, having timed out at {args.timeout:.0f} s or less before (a larger --timeout runs them): "
              + " ".join(f"{j.tool}:{j.label}" for j in kept_timed_out))
    if not_started:
        print(f"not started ({len(not_started)}; run again with --resume): "
              + " ".join(sorted({f'{j.program.name}:{j.tool}' for j in not_started})))
        known = [j for j in not_started if j.lower_bound > 0]
        if known:
            print("  of which already stopped once, needing more than the time that was left: "
                  + " ".join(f"{j.tool}:{j.label} (> {j.lower_bound:.0f} s)" for j in known))
    return 0 if all_clean else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Runs the CUDA test programs under NVIDIA compute-sanitizer and summarises what each tool found.

Usage (on a machine with an NVIDIA GPU, after `cmake --build --preset cuda`):
    python3 scripts/gpu_sanitize.py [--build build/cuda] [--tools memcheck,racecheck,initcheck,synccheck]
                                    [--tests REGEX] [--jobs 4] [--timeout 900] [--out sanitize-logs]

Every test program that CTest runs directly (not the CLI checks, which are CMake scripts) runs
once per tool, with the environment and working folder CTest gives it. Runs go in parallel on
the one GPU. Each run's full report goes to OUT/TOOL/TEST.log; the summary prints one line per
run and one per tool.

A run is clean when the program passes and the tool reports no error. racecheck also reports
warnings (hazards the tool cannot prove harmful); they are listed by kernel, and do not fail
the run unless --strict-racecheck is given. Exit code: 0 all runs clean, 1 otherwise (a
timeout counts as not clean), 2 bad usage or no compute-sanitizer.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

TOOLS = ("memcheck", "racecheck", "initcheck", "synccheck")

# Each tool's options beyond --tool. memcheck also checks for device memory never freed.
TOOL_OPTIONS = {
    "memcheck": ["--leak-check", "full"],
    "racecheck": ["--racecheck-report", "analysis"],
    "initcheck": [],
    "synccheck": [],
}

SUMMARY = re.compile(r"========= (?:ERROR|RACECHECK|LEAK) SUMMARY: (\d+) (?:errors?|hazards? displayed)"
                     r"(?: \((\d+) errors?, (\d+) warnings?\))?")
# The function named in a report: racecheck's "Race reported between Read access at void
# Kokkos::Impl::...", memcheck's "at 0x1a0 in void araios::...".
ACCESS_AT = re.compile(r"^=========\s+.*?\bat (?:0x[0-9a-f]+ in )?((?:void )?[A-Za-z_][\w:]*<.+|(?:void )?[A-Za-z_][\w:]*\(.*)$",
                       re.M)
# Inside a Kokkos launch, the pattern and the functor: "ParallelReduce<...CudaFunctorAdapter<araios::Impl::EmptyRows<"
KOKKOS_FUNCTOR = re.compile(r"Kokkos::Impl::(Parallel(?:For|Reduce|Scan))<(?:Kokkos::Impl::CudaFunctorAdapter<)?([\w:]+)")


def kernel_name(function):
    """A short name for a kernel: the Kokkos pattern and functor, or the function up to its arguments."""
    m = KOKKOS_FUNCTOR.search(function)
    if m:
        return f"{m.group(2)} (Kokkos {m.group(1)})"
    return re.split(r"[<(]", function.replace("void ", "", 1), maxsplit=1)[0]


def ctest_programs(build, pattern):
    """The tests CTest would run as programs of this build: (name, command, environment, folder)."""
    out = subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1"], check=True,
                         capture_output=True, text=True).stdout
    programs = []
    for test in json.loads(out)["tests"]:
        command = test.get("command") or []
        if not command or not os.path.isfile(command[0]) or os.path.basename(command[0]).startswith(("cmake", "ctest")):
            continue
        if not re.search(pattern, test["name"]):
            continue
        properties = {p["name"]: p["value"] for p in test.get("properties", [])}
        environment = dict(e.split("=", 1) for e in properties.get("ENVIRONMENT", []))
        programs.append((test["name"], command, environment, properties.get("WORKING_DIRECTORY", build)))
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


def cuda_filter(program):
    """[--run_test=*Cuda*] when the Boost.Test program has top-level test cases named for CUDA."""
    listing = subprocess.run([program, "--list_content"], capture_output=True, text=True)
    names = [line for line in (listing.stdout + listing.stderr).splitlines() if line and not line[0].isspace()]
    return ["--run_test=*Cuda*"] if any("Cuda" in n for n in names) else []


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


def parse_report(text):
    """(errors, warnings, kernels with a racecheck warning or error) from a compute-sanitizer report."""
    errors = warnings = 0
    for m in SUMMARY.finditer(text):
        if m.group(2) is not None:  # racecheck: "N hazards displayed (E errors, W warnings)"
            errors += int(m.group(2))
            warnings += int(m.group(3))
        else:
            errors += int(m.group(1))
    kernels = sorted({kernel_name(k) for k in ACCESS_AT.findall(text)}) if errors or warnings else []
    return errors, warnings, kernels


def run_one(sanitizer, tool, name, command, environment, folder, out_dir, timeout, omp_threads, deadline):
    log_path = os.path.join(out_dir, tool, name + ".log")
    if deadline:
        timeout = min(timeout, deadline - time.time())
        if timeout < 30:
            return {"tool": tool, "test": name, "seconds": 0.0, "exit": None, "timed_out": False, "not_run": True,
                    "errors": 0, "warnings": 0, "kernels": [], "log": None}
    env = dict(os.environ)
    env.update(environment)
    env.setdefault("OMP_NUM_THREADS", str(omp_threads))
    argv = [sanitizer, "--tool", tool, *TOOL_OPTIONS[tool], "--target-processes", "all", "--print-limit", "200",
            *command]
    start = time.time()
    # In a session of its own, so that a timeout ends the test program too, not only the tool.
    process = subprocess.Popen(argv, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, errors="replace", start_new_session=True)
    try:
        text, _ = process.communicate(timeout=timeout)
        code, timed_out = process.returncode, False
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        text, _ = process.communicate()
        code, timed_out = None, True
    seconds = time.time() - start
    with open(log_path, "w") as f:
        f.write(text)
    errors, warnings, kernels = parse_report(text)
    return {"tool": tool, "test": name, "seconds": round(seconds, 1), "exit": code, "timed_out": timed_out,
            "not_run": False, "errors": errors, "warnings": warnings, "kernels": kernels, "log": log_path}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default="build/cuda", help="the cuda preset's build folder")
    parser.add_argument("--tools", default=",".join(TOOLS), help="comma-separated, from " + ", ".join(TOOLS))
    parser.add_argument("--tests", default=".", help="only tests whose name matches this regular expression")
    parser.add_argument("--exclude", default="^$", help="leave out tests whose name matches this regular expression")
    parser.add_argument("--jobs", type=int, default=4, help="runs at once on the GPU")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per run")
    parser.add_argument("--budget", type=float, default=0,
                        help="seconds for the whole run: runs not started by then are listed as not run, and "
                             "each run gets at most what is left (0: no limit)")
    parser.add_argument("--omp-threads", type=int, default=2, help="OMP_NUM_THREADS of each run, unless its test sets it")
    parser.add_argument("--out", default="sanitize-logs", help="folder for the reports")
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--cuda-cases-only", action="store_true",
                        help="in programs whose test cases are instantiated per backend, run only the CUDA ones "
                             "(Boost.Test --run_test=*Cuda*): the host cases launch no kernel")
    parser.add_argument("--strict-racecheck", action="store_true", help="racecheck warnings fail the run too")
    args = parser.parse_args()

    tools = [t for t in args.tools.split(",") if t]
    unknown = [t for t in tools if t not in TOOLS]
    if unknown:
        print(f"gpu_sanitize: unknown tool {', '.join(unknown)}; expected some of {', '.join(TOOLS)}", file=sys.stderr)
        return 2
    sanitizer = find_sanitizer()
    if not sanitizer:
        print("gpu_sanitize: compute-sanitizer is neither on the PATH nor beside nvcc (it comes with the CUDA toolkit)", file=sys.stderr)
        return 2
    if not os.path.isfile(os.path.join(args.build, "CTestTestfile.cmake")):
        print(f"gpu_sanitize: {args.build} is not a configured build folder; expected build/cuda after "
              "`cmake --build --preset cuda`", file=sys.stderr)
        return 2
    programs = [p for p in ctest_programs(args.build, args.tests) if not re.search(args.exclude, p[0])]
    if not programs:
        print(f"gpu_sanitize: no test program of {args.build} matches '{args.tests}'", file=sys.stderr)
        return 2
    if args.cuda_cases_only:
        programs = [(name, command + cuda_filter(command[0]), env, folder) for name, command, env, folder in programs]
    for tool in tools:
        os.makedirs(os.path.join(args.out, tool), exist_ok=True)

    version = subprocess.run([sanitizer, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    print(f"compute-sanitizer: {version[-1] if version else 'unknown version'}; {len(programs)} programs x "
          f"{len(tools)} tools, {args.jobs} at once, {args.timeout:.0f} s each at most", flush=True)
    # The slowest programs first (by CTest's record of the last run, when there is one), so that
    # they do not end the run alone.
    cost = previous_costs(args.build)
    programs.sort(key=lambda p: -cost.get(p[0], 0.0))
    jobs = [(tool, *p) for p in programs for tool in tools]
    results = []
    deadline = time.time() + args.budget if args.budget > 0 else 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_one, sanitizer, tool, name, command, env, folder, args.out, args.timeout,
                               args.omp_threads, deadline) for tool, name, command, env, folder in jobs]
        for future in concurrent.futures.as_completed(futures):
            r = future.result()
            results.append(r)
            clean = is_clean(r, args.strict_racecheck)
            state = "NOT RUN" if r["not_run"] else "TIMEOUT" if r["timed_out"] else ("clean" if clean else "NOT CLEAN")
            extra = f", {r['warnings']} warnings" if r["warnings"] else ""
            print(f"  {r['tool']:<10} {r['test']:<32} {state:<9} {r['errors']} errors{extra}, exit {r['exit']}, "
                  f"{r['seconds']:.0f} s", flush=True)

    print("\nsummary")
    all_clean = True
    for tool in tools:
        mine = [r for r in results if r["tool"] == tool]
        bad = [r for r in mine if not is_clean(r, args.strict_racecheck)]
        all_clean &= not bad
        warnings = sum(r["warnings"] for r in mine)
        not_run = [r["test"] for r in mine if r["not_run"]]
        timed_out = [r["test"] for r in mine if r["timed_out"]]
        print(f"  {tool:<10} {len(mine) - len(bad)}/{len(mine)} clean, {sum(r['errors'] for r in mine)} errors"
              + (f", {warnings} warnings" if warnings else ""))
        if timed_out:
            print(f"             timed out: {' '.join(timed_out)}")
        if not_run:
            print(f"             not run (out of time): {' '.join(not_run)}")
        kernels = sorted({k for r in mine for k in r["kernels"]})
        for k in kernels[:20]:
            print(f"             reported in {k[:160]}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0 if all_clean else 1


def is_clean(r, strict_racecheck):
    if r["not_run"] or r["timed_out"] or r["exit"] != 0 or r["errors"] > 0:
        return False
    return not (strict_racecheck and r["warnings"] > 0)


if __name__ == "__main__":
    sys.exit(main())

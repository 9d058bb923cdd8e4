#!/usr/bin/env python3
"""Solver benchmark: `araios solve` on the GPU and on one CPU core, the SpMV inside it, and
CuPy's cg/gmres on the same matrix, right-hand side (all ones) and tolerance, in one run.

Usage: compare_solvers.py --araios build/cuda/tools/araios --matrices DIR --out PREFIX
       [--cases nos5:cg,bcsstk13:cg,...] [--tol 1e-8] [--no-serial] [--no-cupy]

Writes PREFIX.json (one object per case) and prints a table. What each column means:
  iters        iterations to ||b - Ax|| <= tol ||b|| (CG, GMRES; GMRES counts Arnoldi steps)
  rel_res      ||b - Ax|| / ||b||, recomputed in long double on the host by araios
  t/iter       solve time / iterations; spmv is one araios SpMV of the same kernel alone
  vs serial    time per iteration of the same solve on the Serial backend (one CPU core) over
               the GPU's; on generated matrices the serial run stops after --serial-iters
  cupy         CuPy on the same GPU: float64 CSR, the same Jacobi preconditioner for CG
               (a diagonal LinearOperator), GMRES(30) without one; its residual is
               recomputed on the GPU in float64. CuPy's GMRES calls back once per restart, so
               its iteration count is restarts x m, an upper bound.
"""
import argparse
import gzip
import inspect
import json
import os
import subprocess
import sys
import time

DEFAULT_CASES = ("nos5:cg,bcsstk13:cg,orsirr_2:gmres,sherman3:gmres,nsjac:gmres,"
                 "cage10:jacobi,lsc_F_2:jacobi,orsirr_2:jacobi,lap2d-1000:cg,lap2d-1000:gmres")


def write_laplacian_2d(path, n):
    """The 5-point Laplacian on an n x n grid (Dirichlet), n^2 rows, as Matrix Market."""
    import numpy as np
    idx = np.arange(n * n).reshape(n, n)
    parts = [(idx.ravel(), idx.ravel(), np.full(n * n, 4.0))]
    for a, b in ((idx[:, :-1], idx[:, 1:]), (idx[:, 1:], idx[:, :-1]), (idx[:-1, :], idx[1:, :]),
                 (idx[1:, :], idx[:-1, :])):
        parts.append((a.ravel(), b.ravel(), np.full(a.size, -1.0)))
    i = np.concatenate([p[0] for p in parts]) + 1
    j = np.concatenate([p[1] for p in parts]) + 1
    v = np.concatenate([p[2] for p in parts])
    with gzip.open(path, "wt", compresslevel=1) as f:
        f.write("%%MatrixMarket matrix coordinate real general\n")
        f.write(f"{n * n} {n * n} {len(v)}\n")
        np.savetxt(f, np.column_stack([i, j, v]), fmt="%d %d %g")


def matrix_path(name, folder, scratch):
    """A real matrix of the folder, or a generated one (lap2d-N) written once to scratch."""
    if name.startswith("lap2d-"):
        path = os.path.join(scratch, name + ".mtx.gz")
        if not os.path.exists(path):
            write_laplacian_2d(path, int(name.split("-")[1]))
        return path, True
    return os.path.join(folder, name + ".mtx.gz"), False


def run_araios(binary, path, method, backend, tol, extra=()):
    maxiter = () if "--maxiter" in extra else ("--maxiter", "100000")
    cmd = [binary, "solve", path, "--method", method, "--backend", backend, "--tol", str(tol), *maxiter, "--json",
           *extra]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if not p.stdout.strip():
        return {"error": p.stderr.strip()[-400:], "exit_code": p.returncode}
    result = json.loads(p.stdout)
    result["exit_code"] = p.returncode
    return result


def run_spmv(binary, path, backend, kernel):
    cmd = [binary, "spmv", path, "--backend", backend, "--format", kernel, "--repeat", "200", "--json"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    return json.loads(p.stdout) if p.returncode == 0 and p.stdout.strip() else None


def read_matrix_market(path):
    """Coordinate Matrix Market (real, integer or pattern; general, symmetric or skew) as COO."""
    import numpy as np
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        header = f.readline().lower().split()
        field, symmetry = header[3], header[4]
        line = f.readline()
        while line.startswith("%"):
            line = f.readline()
        rows, cols, nnz = (int(v) for v in line.split())
        data = np.loadtxt(f, ndmin=2, max_rows=nnz)
    i = data[:, 0].astype(np.int64) - 1
    j = data[:, 1].astype(np.int64) - 1
    v = np.ones(len(i)) if field == "pattern" else data[:, 2].astype(np.float64)
    if symmetry in ("symmetric", "skew-symmetric", "hermitian"):
        off = i != j
        sign = -1.0 if symmetry == "skew-symmetric" else 1.0
        i, j, v = np.concatenate([i, j[off]]), np.concatenate([j, i[off]]), np.concatenate([v, sign * v[off]])
    return rows, cols, i, j, v


def tolerance_keyword(function):
    """CuPy renamed tol to rtol; use whichever this version has."""
    return "rtol" if "rtol" in inspect.signature(function).parameters else "tol"


def run_cupy(path, method, tol, restart=30, maxiter=100000):
    import cupy as cp
    import cupyx.scipy.sparse as sp
    import cupyx.scipy.sparse.linalg as la
    rows, cols, i, j, v = read_matrix_market(path)
    A = sp.coo_matrix((cp.asarray(v), (cp.asarray(i), cp.asarray(j))), shape=(rows, cols)).tocsr()
    A.sum_duplicates()
    b = cp.ones(rows, dtype=cp.float64)
    count = [0]
    if method == "cg":
        d = A.diagonal()
        inv = 1.0 / d
        M = la.LinearOperator((rows, rows), matvec=lambda r: inv * r, dtype=cp.float64)
        call = lambda: la.cg(A, b, maxiter=maxiter, M=M, callback=lambda xk: count.__setitem__(0, count[0] + 1),
                             **{tolerance_keyword(la.cg): tol})
        per_callback = 1
    elif method == "gmres":
        call = lambda: la.gmres(A, b, restart=restart, maxiter=maxiter,
                                callback=lambda r: count.__setitem__(0, count[0] + 1), callback_type="pr_norm",
                                **{tolerance_keyword(la.gmres): tol})
        per_callback = restart
    else:
        return None
    call()  # warm-up: kernel compilation and cuSPARSE handles
    count[0] = 0
    cp.cuda.Device().synchronize()
    start = time.perf_counter()
    x, info = call()
    cp.cuda.Device().synchronize()
    seconds = time.perf_counter() - start
    residual = float(cp.linalg.norm(b - A @ x) / cp.linalg.norm(b))
    return {"iterations": count[0] * per_callback, "info": int(info), "rel_residual": residual, "time_s": seconds,
            "version": cp.__version__}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--araios", required=True)
    parser.add_argument("--matrices", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--cases", default=DEFAULT_CASES)
    parser.add_argument("--tol", type=float, default=1e-8)
    parser.add_argument("--backend", default="cuda")
    parser.add_argument("--no-serial", action="store_true")
    parser.add_argument("--serial-iters", type=int, default=200,
                        help="iterations of the serial run on generated matrices (too slow to finish)")
    parser.add_argument("--scratch", default="/tmp", help="where generated matrices are written")
    parser.add_argument("--no-cupy", action="store_true")
    args = parser.parse_args()

    results = []
    for case in args.cases.split(","):
        name, method = case.split(":")
        path, generated = matrix_path(name, args.matrices, args.scratch)
        print(f"[{len(results) + 1}] {name} {method} ...", file=sys.stderr, flush=True)
        entry = {"matrix": name, "method": method, "tolerance": args.tol}
        entry["araios"] = run_araios(args.araios, path, method, args.backend, args.tol)
        kernel = entry["araios"].get("format", "csr-scalar")
        entry["spmv"] = run_spmv(args.araios, path, args.backend, kernel)
        if not args.no_serial:
            limit = ("--maxiter", str(args.serial_iters)) if generated else ()
            entry["serial"] = run_araios(args.araios, path, method, "serial", args.tol, limit)
        if not args.no_cupy and method in ("cg", "gmres"):
            try:
                entry["cupy"] = run_cupy(path, method, args.tol)
            except Exception as e:  # CuPy missing or failing: recorded, not fatal
                entry["cupy"] = {"error": f"{type(e).__name__}: {e}"}
        results.append(entry)

    with open(args.out + ".json", "w") as f:
        json.dump(results, f, indent=1)

    def g(d, key, fmt="{:.3g}"):
        return fmt.format(d[key]) if d and key in d and d[key] is not None else "-"

    print(f"{'matrix':<10} {'method':<7} {'iters':>6} {'rel_res':>9} {'time s':>9} {'t/iter us':>9} {'spmv us':>8} "
          f"{'serial s':>9} {'vs serial':>9} | {'cupy iters':>10} {'cupy res':>9} {'cupy s':>8}")
    for e in results:
        a, s, c, m = e["araios"], e.get("serial"), e.get("cupy"), e.get("spmv")
        per_iter = a["time_s"] / a["iterations"] * 1e6 if a.get("iterations") else None
        speedup = (s["time_per_iteration_s"] / a["time_per_iteration_s"]
                   if s and a.get("time_per_iteration_s") and s.get("time_per_iteration_s") else None)
        print(f"{e['matrix']:<10} {e['method']:<7} {g(a, 'iterations', '{}'):>6} {g(a, 'rel_residual', '{:.2e}'):>9} "
              f"{g(a, 'time_s', '{:.4f}'):>9} {('%.1f' % per_iter) if per_iter else '-':>9} "
              f"{('%.1f' % (m['time_s'] * 1e6)) if m else '-':>8} {g(s, 'time_s', '{:.4f}'):>9} "
              f"{('%.1fx' % speedup) if speedup else '-':>9} | {g(c, 'iterations', '{}'):>10} "
              f"{g(c, 'rel_residual', '{:.2e}'):>9} {g(c, 'time_s', '{:.4f}'):>8}")


if __name__ == "__main__":
    main()

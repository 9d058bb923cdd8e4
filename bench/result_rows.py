"""Reading araios-bench results (.jsonl, .csv, or either compressed with xz), shared by
plot.py, model_report.py and spgemm_report.py. Rows carry a `kind`: "spgemm" for the SpGEMM
suite's (araios-bench --spgemm); SpMV rows have no such column and read as "spmv"."""
import csv
import io
import json
import lzma
import sys

# Columns kept as text in a CSV even when they look like numbers.
TEXT_COLUMNS = {"matrix", "source", "class", "kernel", "format", "library", "backend", "device", "precision",
                "mode", "y_hash", "commit", "date", "auto_kernel", "refused", "error", "note",
                "kind", "product", "implementation", "hash", "status"}


def _value(key, text):
    if text is None or text == "":
        return None
    if key in TEXT_COLUMNS:
        return text
    if text in ("true", "false"):
        return text == "true"
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def _open(path):
    if path.endswith(".xz"):
        return io.TextIOWrapper(lzma.open(path), newline="")
    return open(path, newline="")


def row_kind(row):
    """"spgemm" or "spmv" (rows without a kind column are SpMV rows)."""
    return row.get("kind") or "spmv"


def usual_product(row):
    """Whether an SpMV row times the product as the library runs it by default: not one of the
    --keep-x-in-l2 rows (keep_x_in_l2 true, schema 3), which measure that option beside it."""
    return not row.get("keep_x_in_l2")


def read_rows(paths, program, kind=None):
    """Every row of the files (only those of `kind`, "spmv" or "spgemm", when given), as dicts;
    exits naming the file and line on a malformed one."""
    rows = []
    for path in paths:
        csv_file = path.endswith(".csv") or path.endswith(".csv.xz")
        try:
            with _open(path) as f:
                if csv_file:
                    rows.extend({k: _value(k, v) for k, v in r.items()} for r in csv.DictReader(f))
                    continue
                for n, line in enumerate(f, 1):
                    line = line.strip()
                    if not line:
                        continue
                    try:
                        rows.append(json.loads(line))
                    except json.JSONDecodeError as e:
                        sys.exit(f"{program}: {path}:{n}: not JSON ({e}); expected one araios-bench row per line")
        except OSError as e:
            sys.exit(f"{program}: cannot read {path}: {e.strerror}")
        except lzma.LZMAError as e:
            sys.exit(f"{program}: {path}: not an xz file ({e})")
    if kind is not None:
        rows = [r for r in rows if row_kind(r) == kind]
    return rows

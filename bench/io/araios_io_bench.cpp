// araios-io-bench: how fast Araios reads and writes Matrix Market files, plain and gzip, at
// each thread count, on generated matrices of the sizes asked for. Beside each, what bounds
// it: reading the file's bytes (read(2) into a buffer) for plain text, and decompressing it on
// one thread (zlib's gzread) for gzip. Files are written to --dir and removed at the end
// (unless --keep); reads find them in the page cache, so the disk itself is not measured.
//
//   araios-io-bench --entries 1e6,1e7 --threads 1,2 --repeat 3 --csv io.csv --jsonl io.jsonl
#include "generate_matrix.hpp"

#include <araios/io/atomic_file.hpp>
#include <araios/io/matrix_market.hpp>

#include <CLI/CLI.hpp>
#include <zlib.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct Row {
  std::string operation;  // read, write, read-bytes, decompress
  std::string format;     // plain, plain-by-column, gz
  std::int64_t entries;
  std::int64_t textBytes;
  std::int64_t fileBytes;
  int threads;
  double seconds;  // the fastest of the repeats
};

double mbPerSecond(const Row& row) { return static_cast<double>(row.textBytes) / 1e6 / row.seconds; }

/// The fastest of `repeat` runs: the others are slowed by whatever else the machine runs.
double fastest(int repeat, const std::function<void()>& run) {
  double best = std::numeric_limits<double>::infinity();
  for (int k = 0; k < repeat; ++k) {
    const auto start = Clock::now();
    run();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count());
  }
  return best;
}

/// read(2) of the whole file in 4 MiB blocks: what no reader of the file can beat.
void readBytes(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw std::runtime_error("cannot open " + path);
  std::vector<char> buffer(std::size_t{4} << 20);
  while (::read(fd, buffer.data(), buffer.size()) > 0) {
  }
  ::close(fd);
}

/// zlib's gzread of the whole file on one thread, the text thrown away: what bounds the gzip
/// reader, whose parsing runs beside the decompression.
std::int64_t decompress(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file) throw std::runtime_error("cannot open " + path);
  gzbuffer(file, 256 * 1024);
  std::vector<char> buffer(std::size_t{1} << 20);
  std::int64_t total = 0;
  for (int got; (got = gzread(file, buffer.data(), static_cast<unsigned>(buffer.size()))) > 0;) total += got;
  gzclose_r(file);
  return total;
}

/// The same entries, ordered by column, then row.
araios::io::HostMatrix columnMajor(const araios::io::HostMatrix& m) {
  std::vector<std::size_t> order(m.value.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return m.col[a] < m.col[b]; });
  araios::io::HostMatrix out;
  out.numRows = m.numRows;
  out.numCols = m.numCols;
  for (const std::size_t k : order) {
    out.row.push_back(m.row[k]);
    out.col.push_back(m.col[k]);
    out.value.push_back(m.value[k]);
  }
  return out;
}

std::vector<std::int64_t> parseCounts(const std::vector<std::string>& words) {
  std::vector<std::int64_t> counts;
  for (const std::string& w : words) counts.push_back(static_cast<std::int64_t>(std::stod(w)));
  return counts;
}

void print(const Row& row) {
  std::printf("%-10s %-5s %12lld entries %8.1f MB  %d thread%s  %8.3f s  %8.1f MB/s\n", row.operation.c_str(),
              row.format.c_str(), static_cast<long long>(row.entries), row.textBytes / 1e6, row.threads,
              row.threads == 1 ? " " : "s", row.seconds, mbPerSecond(row));
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Matrix Market read and write speed of Araios on generated matrices"};
  std::vector<std::string> entryWords = {"1e6", "1e7"};
  std::vector<int> threadCounts = {1, 2};
  std::string dir = fs::temp_directory_path().string();
  std::string csvPath, jsonlPath;
  int repeat = 3;
  bool gzip = true, byColumnToo = true, keep = false;
  app.add_option("--entries", entryWords, "matrix sizes, in entries (1e6 and the like)")->delimiter(',');
  app.add_option("--threads", threadCounts, "thread counts to measure")->delimiter(',');
  app.add_option("--repeat", repeat, "runs of each read (the fastest counts); writes run once")->check(CLI::PositiveNumber);
  app.add_option("--dir", dir, "where the files are written");
  app.add_option("--csv", csvPath, "write the rows as CSV (at the end, whole: through PATH.tmp-XXXXXX, renamed)");
  app.add_option("--jsonl", jsonlPath, "write the rows as JSON lines (at the end, whole, as --csv)");
  app.add_flag("!--no-gzip", gzip, "plain files only");
  app.add_flag("!--no-by-column", byColumnToo, "skip the file ordered by column");
  app.add_flag("--keep", keep, "keep the generated files");
  CLI11_PARSE(app, argc, argv);

  std::vector<Row> rows;
  auto record = [&](Row row) {
    print(row);
    rows.push_back(std::move(row));
  };
  for (const std::int64_t wanted : parseCounts(entryWords)) {
    const araios::io::HostMatrix matrix = araios::bench_io::generateMatrix(wanted, 20240611);
    const std::int64_t entries = matrix.nnz();
    const std::string stem = (fs::path(dir) / ("araios-io-bench-" + std::to_string(entries))).string();
    // "plain-by-column" lists the entries column by column, as SuiteSparse files do: the reader
    // then sorts them by row, where a row-ordered file needs no sort.
    const araios::io::HostMatrix byColumn = columnMajor(matrix);
    for (const std::string format : {"plain", "plain-by-column", "gz"}) {
      if (format == "gz" && !gzip) continue;
      if (format == "plain-by-column" && !byColumnToo) continue;
      const std::string path = stem + (format == "gz" ? ".mtx.gz" : format == "plain" ? ".mtx" : "-by-column.mtx");
      const araios::io::HostMatrix& written = format == "plain-by-column" ? byColumn : matrix;
      double writeSeconds = 0;
      std::vector<Row> writes;
      for (const int threads : threadCounts) {
        araios::io::WriteOptions options;
        options.threads = threads;
        writeSeconds = fastest(1, [&] { araios::io::writeMatrixMarket(path, written, options); });
        writes.push_back({"write", format, entries, 0, 0, threads, writeSeconds});
      }
      const auto fileBytes = static_cast<std::int64_t>(fs::file_size(path));
      const std::int64_t textBytes = format == "gz" ? decompress(path) : fileBytes;
      for (Row& w : writes) {
        w.textBytes = textBytes;
        w.fileBytes = fileBytes;
        record(w);
      }
      if (format != "gz") {
        record({"read-bytes", format, entries, textBytes, fileBytes, 1, fastest(repeat, [&] { readBytes(path); })});
      } else {
        record({"decompress", format, entries, textBytes, fileBytes, 1, fastest(repeat, [&] { decompress(path); })});
      }
      for (const int threads : threadCounts) {
        araios::io::ReadOptions options;
        options.threads = threads;
        std::int64_t got = 0;
        const double seconds = fastest(repeat, [&] { got = araios::io::readMatrixMarket(path, options).nnz(); });
        if (got != entries) throw std::runtime_error("read " + std::to_string(got) + " entries of " + path);
        record({"read", format, entries, textBytes, fileBytes, threads, seconds});
      }
      if (!keep) fs::remove(path);
    }
  }

  // Written whole through AtomicFile: a half-written CSV never stands under its name.
  if (!csvPath.empty()) {
    std::ostringstream csv;
    csv << "tool,commit,operation,format,entries,text_bytes,file_bytes,threads,seconds,mb_per_s\n";
    for (const Row& r : rows) {
      csv << "araios," << ARAIOS_IO_BENCH_COMMIT << ',' << r.operation << ',' << r.format << ',' << r.entries << ','
          << r.textBytes << ',' << r.fileBytes << ',' << r.threads << ',' << r.seconds << ',' << mbPerSecond(r) << '\n';
    }
    araios::io::writeFileAtomically(csvPath, csv.str());
  }
  if (!jsonlPath.empty()) {
    std::ostringstream jsonl;
    for (const Row& r : rows) {
      jsonl << "{\"tool\": \"araios\", \"commit\": \"" << ARAIOS_IO_BENCH_COMMIT << "\", \"operation\": \"" << r.operation
            << "\", \"format\": \"" << r.format << "\", \"entries\": " << r.entries << ", \"text_bytes\": " << r.textBytes
            << ", \"file_bytes\": " << r.fileBytes << ", \"threads\": " << r.threads << ", \"seconds\": " << r.seconds
            << ", \"mb_per_s\": " << mbPerSecond(r) << "}\n";
    }
    araios::io::writeFileAtomically(jsonlPath, jsonl.str());
  }
  return 0;
}

#pragma once
// Progress on stderr, one line per measurement as it starts:
//   [12/180] cage14 brcp double  elapsed 01:23  eta 04:10
// The ETA weighs each remaining item by its matrix's size (nnz + rows, plus a fixed cost for
// the per-item setup), from the seconds the items done so far took per unit of weight. Items are
// weighed from the suite's plan, before the matrices exist: generated ones by their target
// nnz, real ones from their file size (an estimate; it only steers the ETA).
#include <chrono>
#include <cstdint>
#include <string>

namespace araios::bench {

class Progress {
 public:
  void addPlanned(int items, double weightEach) {
    total_ += items;
    totalWeight_ += items * weightEach;
  }
  /// Removes planned items that will not run (a matrix the reader refused).
  void skip(int items, double weightEach) {
    total_ -= items;
    totalWeight_ -= items * weightEach;
  }
  /// Announces the next item; `weight` is what it adds to the done weight once the next
  /// announcement (or finish()) comes.
  void begin(const std::string& matrix, const std::string& kernel, const std::string& precision, double weight);
  /// A note between items (reading or generating a matrix), with the elapsed time.
  void note(const std::string& text) const;
  double elapsedSeconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  int total() const { return total_; }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  int total_ = 0;
  int started_ = 0;
  double totalWeight_ = 0;
  double doneWeight_ = 0;
  double currentWeight_ = 0;
};

/// mm:ss, or h:mm:ss past an hour.
std::string clockTime(double seconds);

}  // namespace araios::bench

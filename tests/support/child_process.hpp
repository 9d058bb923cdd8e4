#pragma once
// Runs a test case of this very executable in a child process with another OpenMP thread count
// (a process cannot change its own after Kokkos::initialize), for the tests that compare bits
// across thread counts. The child's test case writes one line per result to the file named by
// an environment variable; the parent reads them back.
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace araios::test {

/// Runs `testCase` of this executable with OMP_NUM_THREADS=threads and `outputVariable` set to
/// a temporary file, and returns the lines the child wrote there. The child's own output
/// (Kokkos' warnings about thread counts, say) is shown only if it fails.
inline std::vector<std::string> linesFromChildProcess(const std::string& outputVariable, const std::string& testCase,
                                                      int threads) {
  char path[] = "/tmp/araios_child_XXXXXX";
  const int fd = mkstemp(path);
  BOOST_REQUIRE(fd >= 0);
  close(fd);
  const std::string self = boost::unit_test::framework::master_test_suite().argv[0];
  const std::string command = outputVariable + "=" + path + " OMP_NUM_THREADS=" + std::to_string(threads) +
                              " OMP_PROC_BIND=false '" + self + "' --run_test=" + testCase +
                              " --log_level=nothing --report_level=no";
  const std::string log = std::string(path) + ".log";
  const int status = std::system((command + " > '" + log + "' 2>&1").c_str());
  if (status != 0) {
    std::ifstream logFile(log);
    std::stringstream text;
    text << logFile.rdbuf();
    BOOST_ERROR("worker with " << threads << " threads failed: " << command << "\n" << text.str());
  }
  std::remove(log.c_str());
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::remove(path);
  return lines;
}

}  // namespace araios::test

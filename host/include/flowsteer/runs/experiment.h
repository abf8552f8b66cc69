// The seed experiment (spec 7.9): original vs patched across rps_flow_cnt sizes,
// the published numbers beside ours, and the shape checks of the published table.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "flowsteer/system/system_sim.h"

namespace flowsteer::runs {

// One row of spec 7.9.1's table (8-minute runs on E810, 144 CPUs, 12K flows).
struct SeedRow {
  uint32_t rps_flow_cnt;
  double add_orig, del_orig, steer_c_orig, steer_l_orig;
  double add_new, del_new, steer_c_new, steer_l_new;
};
const std::vector<SeedRow>& seed_table();
const SeedRow* seed_row(uint32_t rps_flow_cnt);

// A column of the table: the ice mirror in either variant, or the hardware engine.
struct RunKind {
  kernel::Variant variant;
  bool engine;
};

struct ExperimentConfig {
  system::SystemConfig base;                       // rps_flow_cnt, variant and engine are set per run
  std::vector<uint32_t> sizes = {256, 512, 1024, 2048, 4096, 8192, 16384, 32768};
  std::vector<RunKind> kinds = {{kernel::Variant::kOriginal, false},
                                {kernel::Variant::kPatched, false},
                                {kernel::Variant::kPatched, true}};
  unsigned threads = 0;                    // 0 = hardware concurrency
};

struct ShapeCheck {
  std::string name;
  bool pass;
  std::string detail;
};

struct ExperimentResult {
  ExperimentConfig cfg;
  std::vector<system::SystemResult> runs;          // sizes x kinds, in that order
  std::vector<ShapeCheck> checks;
  const system::SystemResult* find(uint32_t size, kernel::Variant v, bool engine = false) const;
  bool shape_ok() const;
};

// Runs the matrix on a thread pool; progress(done_packets, total_packets_estimate).
ExperimentResult run_experiment(const ExperimentConfig& cfg,
                                const std::function<void(uint64_t, uint64_t)>& progress = nullptr);
// Cell-by-cell agreement with the published table: of the counters run
// (Add, Del, Steer-C, Steer-L x original/patched x the seed's sizes), how many lie within
// [published / factor, published x factor].
struct CellAgreement {
  int within = 0;
  int compared = 0;
};
CellAgreement cells_within(const ExperimentResult& r, double factor);
double seed_value(const SeedRow& sr, kernel::Variant v, uint64_t driver::ArfsCounters::*f);

// The shape of the published table, on projected counts, for whatever sizes/variants were run.
std::vector<ShapeCheck> check_shape(const ExperimentResult& r);

void print_table(std::ostream& os, const ExperimentResult& r);
void write_json(std::ostream& os, const ExperimentResult& r);
void write_csv(std::ostream& os, const ExperimentResult& r);
// PNG through gnuplot; returns an empty string or what went wrong.
std::string write_plot(const std::string& png_path, const ExperimentResult& r);

}  // namespace flowsteer::runs

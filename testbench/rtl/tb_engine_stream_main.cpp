// Verilator driver of testbench/rtl/tb_engine_stream.sv: only the clock lives here, so the
// bench itself is the same file Icarus runs.
#include <memory>

#include "Vtb_engine_stream.h"
#include "verilated.h"

int main(int argc, char** argv) {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  auto tb = std::make_unique<Vtb_engine_stream>(ctx.get());
  tb->clk = 0;
  tb->eval();
  while (!ctx->gotFinish()) {
    ctx->timeInc(5);
    tb->clk = !tb->clk;
    tb->eval();
  }
  tb->final();
  return 0;
}

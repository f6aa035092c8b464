// The memory op: a model's weights and KV cache against its GPUs' memory (P5 §1, §6.1).
#include "api/ops.hpp"
#include "base/json_writer.hpp"
#include "model/presets.hpp"
#include "parallel/memory.hpp"
#include "parallel/parallel.hpp"

namespace commlab {

// P5 §1, §6.1: does a model fit n GPUs, how many its weights need, the KV room left, batch-1
// decode's lower bound on 1 and n GPUs, and replicas' throughput (no traffic between them).
void op_memory(Request& r, JsonWriter& w) {
  const ModelPreset m = read_model(r, "llama3_70b");
  const GpuPreset g = read_gpu(r, "h100");
  const int gpus = r.integer_or("gpus", 1, 1, 4096);
  const double context = r.integer_or("context_tokens", 8192, 0, 100000000);
  const double batch = r.integer_or("batch", 1, 1, 1000000);
  const int replicas = r.integer_or("replicas", 1, 1, 100000);
  const double eff = r.number_or("hbm_efficiency", kDefaultEfficiency, Range{0.01, 1, false, ""});
  r.finish();
  const MemoryPlan p = memory_plan(m, g, gpus, context, batch, replicas, eff);
  w.key("model");
  write_model(w, m);
  w.key("gpu");
  write_gpu(w, g);
  w.member("gpus", p.gpus).member("context_tokens", p.context_tokens).member("batch", p.batch)
      .member("replicas", p.replicas).member("hbm_efficiency", eff).member("weight_bytes", p.weight_bytes)
      .member("weight_bytes_per_gpu", p.weight_bytes_per_gpu).member("kv_bytes_per_token", p.kv_bytes_per_token)
      .member("kv_bytes", p.kv_bytes).member("kv_bytes_per_gpu", p.kv_bytes_per_gpu)
      .member("used_bytes_per_gpu", p.used_bytes_per_gpu).member("hbm_bytes", p.hbm_bytes)
      .member("used_fraction", p.used_fraction).member("weights_fit", p.weights_fit).member("fits", p.fits)
      .member("kv_room_bytes_per_gpu", p.kv_room_bytes_per_gpu).member("min_gpus", p.min_gpus)
      .member("min_gpus_with_kv", p.min_gpus_with_kv).member("min_gpus_power_of_two", p.min_gpus_power_of_two).member("max_context_tokens", p.max_context_tokens)
      .member("decode_time_s", p.decode_time_s).member("decode_time_effective_s", p.decode_time_effective_s)
      .member("one_gpu_fits", p.one_gpu_fits).member("one_gpu_decode_time_s", p.one_gpu_decode_time_s)
      .member("one_gpu_decode_time_effective_s", p.one_gpu_decode_time_effective_s)
      .member("speedup", p.speedup).member("total_gpus", p.total_gpus).member("tokens_per_s", p.tokens_per_s)
      .member("tokens_per_s_effective", p.tokens_per_s_effective)
      .member("traffic_bytes_between_replicas", p.traffic_bytes_between_replicas);
}

}  // namespace commlab

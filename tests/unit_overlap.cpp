// Overlap of computation and communication (P5 §2.5, §7; code 05; exercise 8).
#include <gtest/gtest.h>

#include "api/api.hpp"
#include "parallel/overlap.hpp"
#include "parallel/parallel.hpp"
#include "base/units.hpp"

using namespace commlab;
using namespace commlab::units;

TEST(Overlap, ChunkedPipelining) {
  EXPECT_NEAR(chunked_overlap(1 * ms, 1 * ms, 1, 10 * us).total_s / ms, 2.01, 1e-9);
  EXPECT_NEAR(chunked_overlap(1 * ms, 1 * ms, 8, 10 * us).total_s / ms, 1.205, 1e-9);   // "1.20"
  EXPECT_NEAR(chunked_overlap(1 * ms, 1 * ms, 256, 10 * us).total_s / ms, 3.564, 1e-3); // "3.56"
  // Communication longer than compute: nothing beats the communication itself.
  for (int n : {1, 2, 8, 64}) EXPECT_GE(chunked_overlap(1 * ms, 2 * ms, n, 10 * us).total_s, 2 * ms);
  const Timeline t = chunked_overlap(1, 1, 4, 0);
  ASSERT_EQ(t.intervals.size(), 8u);
  EXPECT_DOUBLE_EQ(t.total_s, 1.25);
  EXPECT_DOUBLE_EQ(t.exposed_comm_s, 0.25);
}

TEST(Overlap, TpPrefillInChunks) {
  const ModelPreset& m = *find_model("llama3_70b");
  const GpuPreset& g = *find_gpu("h100");
  const Link nv = catalogue_link("nvlink4");
  const TpPrefillOverlap one = tp_prefill_overlap(m, g, 8, 4096, nv, 1, AllreduceAlgorithm::ring);
  EXPECT_NEAR(one.layer_compute_s / ms, 1.32, 0.005);
  EXPECT_NEAR(one.layer_comm_s / ms, 0.71, 0.005);
  EXPECT_DOUBLE_EQ(one.saved_s, 0);
  const TpPrefillOverlap four = tp_prefill_overlap(m, g, 8, 4096, nv, 4, AllreduceAlgorithm::ring);
  const TpPrefillOverlap sixteen = tp_prefill_overlap(m, g, 8, 4096, nv, 16, AllreduceAlgorithm::ring);
  EXPECT_NEAR(four.saved_s / ms, 38, 38 * 0.05);  // "about 38 ms"
  EXPECT_NEAR(four.saved_s / ms, 39.15, 0.01);
  EXPECT_LT(sixteen.saved_s, four.saved_s);       // "16 chunks are slower again (alpha)"
  EXPECT_NEAR(sixteen.saved_s / ms, 31.4, 0.1);
  // The lecture's 38 ms exactly, if a chunk is charged a/n plus its 28 alphas (05-1's formula).
  const double alphas = 2 * allreduce_cost(AllreduceAlgorithm::ring, 8, 1, nv).alpha_time_s;
  const double alt = m.layers * (one.layer_serial_s -
                                 chunked_overlap(one.layer_compute_s, one.layer_comm_s, 4, alphas).total_s);
  EXPECT_NEAR(alt / ms, 38.0, 0.05);
}

TEST(Overlap, KvTransferSection25And73) {
  const ModelPreset& m = *find_model("llama3_70b");
  const double F = effective_flops(*find_gpu("h100"));
  const Link ib = catalogue_link("ib_ndr");
  EXPECT_DOUBLE_EQ(kv_bytes_per_token(m), 327680);
  const KvTransfer k4 = kv_transfer(m, 4096, 8, ib, prefill_layer_time_s(m, 4096, 8, F));
  EXPECT_NEAR(k4.kv_bytes / GB, 1.342, 0.0005);
  EXPECT_NEAR(k4.one_nic_s / ms, 33.6, 0.05);
  EXPECT_NEAR(k4.all_nics_s / ms, 4.2, 0.005);
  EXPECT_NEAR(k4.layerwise_exposed_s / us, 57, 0.5);
  EXPECT_NEAR(k4.prefill_s / ms, 105, 0.5);  // §2.5: "about 105 ms" on 8 GPUs
  const KvTransfer k32 = kv_transfer(m, 32768, 8, ib, prefill_layer_time_s(m, 32768, 8, F));
  EXPECT_NEAR(k32.kv_bytes / GB, 10.74, 0.005);
  EXPECT_NEAR(k32.one_nic_s / ms, 268, 0.5);
  EXPECT_NEAR(k32.all_nics_s / ms, 33.6, 0.05);
  EXPECT_NEAR(k32.layerwise_exposed_s / ms, 0.4244, 0.0001);
  EXPECT_GT(k32.layer_compute_s, k32.layer_transfer_s);  // "each layer still computes longer"
  // A transfer slower than compute piles up: all but the hidden part is exposed.
  const KvTransfer slow = kv_transfer(m, 4096, 1, ib, 0.1 * ms);
  EXPECT_GT(slow.layerwise_exposed_s, 0.9 * (slow.one_nic_s - slow.prefill_s));
}

TEST(Overlap, ColdStartSection25) {
  const ModelPreset& m = *find_model("llama3_70b");
  EXPECT_NEAR(transfer_time_s(catalogue_link("nvme"), m.weight_bytes), 25, 0.5);       // "25 s"
  EXPECT_NEAR(transfer_time_s(catalogue_link("pcie5"), m.weight_bytes / 8), 0.34, 0.005);  // "0.34 s"
}

TEST(Overlap, TwoBatchOverlapPeaksAtFourThirds) {
  double best = 0, best_a = 0;
  for (double a = 0.05; a <= 5.0; a += 0.05) {
    const Timeline t = two_batch_overlap(1.0, a);
    EXPECT_NEAR(t.total_s, 0.5 + std::max(1.0, a) / 2 + a / 2, 1e-12);
    if (t.serial_s / t.total_s > best) {
      best = t.serial_s / t.total_s;
      best_a = a;
    }
    EXPECT_LE(t.serial_s - t.total_s, 1.0 + 1e-12);  // at most the compute hides
  }
  EXPECT_NEAR(best, 4.0 / 3, 1e-9);  // "1.33x"
  EXPECT_NEAR(best_a, 1.0, 1e-9);
  EXPECT_LT(two_batch_overlap(1.0, 0.02).serial_s / two_batch_overlap(1.0, 0.02).total_s, 1.02);
}

TEST(Overlap, Ops) {
  auto ch = evaluate(nlohmann::json{{"op", "overlap"}, {"kind", "chunked"}, {"compute_s", 1e-3},
                                    {"comm_s", 1e-3}, {"chunks", 8}, {"alpha_per_chunk_s", 1e-5}});
  ASSERT_FALSE(ch.contains("error")) << ch.dump();
  EXPECT_NEAR(ch["total_s"].get<double>(), 1.205e-3, 1e-12);
  EXPECT_EQ(ch["intervals"].size(), 16u);
  auto tp = evaluate(nlohmann::json{{"op", "overlap"}, {"kind", "tp_prefill"}, {"chunks", 4}});
  ASSERT_FALSE(tp.contains("error")) << tp.dump();
  EXPECT_NEAR(tp["model_saved_s"].get<double>() / ms, 39.15, 0.01);
  auto tbo = evaluate(nlohmann::json{{"op", "overlap"}, {"kind", "two_batch"}, {"comm_s", 1}});
  EXPECT_NEAR(tbo["speedup"].get<double>(), 4.0 / 3, 1e-12);
  auto kv = evaluate(nlohmann::json{{"op", "kv_transfer"}, {"tokens", 32768}});
  ASSERT_FALSE(kv.contains("error")) << kv.dump();
  EXPECT_NEAR(kv["layerwise_exposed_s"].get<double>() / ms, 0.4244, 0.0001);
  auto node = evaluate(nlohmann::json{{"op", "kv_transfer"}, {"node", {{"id", "dgx_h100"}, {"nics", 1}}}});
  EXPECT_NEAR(node["all_nics_s"].get<double>(), node["one_nic_s"].get<double>(), 1e-15) << node.dump();
  auto bad = evaluate(nlohmann::json{{"op", "overlap"}, {"kind", "chunky"}});
  EXPECT_EQ(bad["error"]["code"], "unknown_value");
  auto missing = evaluate(nlohmann::json{{"op", "overlap"}, {"kind", "chunked"}, {"compute_s", 1}});
  EXPECT_EQ(missing["error"]["code"], "missing_field");
}

// The comparison table of P5 §6.6 (op parallelisms): each row's figures are the ones the
// parallelism's own op gives (tp, transfer, moe, ring_attention), where each belongs follows the
// rule, and the refusals name the field.
#include <gtest/gtest.h>

#include "api/api.hpp"

using namespace commlab;
using nlohmann::json;

namespace {
std::string error_message(const json& out) { return out.contains("error") ? out["error"]["message"].get<std::string>() : ""; }
const json& row(const json& out, const std::string& id) {
  for (const json& r : out["rows"])
    if (r["id"] == id) return r;
  throw std::runtime_error("no row " + id);
}
}  // namespace

TEST(Parallelisms, RowsAreTheirOwnOpsFigures) {
  const json out = evaluate({{"op", "parallelisms"}});  // Mixtral-8x7B on a DGX H100, decode of 64 tokens
  ASSERT_EQ(error_message(out), "") << out;
  ASSERT_EQ(out["rows"].size(), 6u);
  EXPECT_EQ(row(out, "dp")["belongs_on"], "anywhere");
  EXPECT_EQ(row(out, "dp")["bytes_per_gpu_step"], 0.0);
  for (const char* link : {"nvlink4", "ib_ndr"}) {
    const json tp = evaluate({{"op", "tp"}, {"model", "mixtral_8x7b"}, {"tp", 8}, {"tokens", 64}, {"link", link}});
    const char* time = std::string(link) == "nvlink4" ? "intra_time_s" : "nic_time_s";
    EXPECT_DOUBLE_EQ(row(out, "tp")[time].get<double>(), tp["comm_time_s"].get<double>()) << link;
    EXPECT_DOUBLE_EQ(row(out, "sp")[time].get<double>(), tp["comm_time_s"].get<double>()) << link;
    const json moe = evaluate({{"op", "moe"}, {"model", "mixtral_8x7b"}, {"ep", 8}, {"batch_tokens", 64}, {"link", link}});
    EXPECT_DOUBLE_EQ(row(out, "ep")[time].get<double>(), moe["step_time_s"].get<double>()) << link;
    const json hop = evaluate({{"op", "transfer"}, {"link", link}, {"bytes", tp["allreduce_bytes"]}});
    EXPECT_DOUBLE_EQ(row(out, "pp")[time].get<double>(), hop["time_s"].get<double>()) << link;  // pp 2: one boundary
    const json ring = evaluate({{"op", "ring_attention"}, {"model", "mixtral_8x7b"}, {"devices", 8}, {"prompt_tokens", 64}, {"link", link}});
    EXPECT_DOUBLE_EQ(row(out, "cp")[time].get<double>(), 32 * 7 * ring["transfer_time_s"].get<double>()) << link;
  }
  const json tp = evaluate({{"op", "tp"}, {"model", "mixtral_8x7b"}, {"tp", 8}, {"tokens", 64}});
  EXPECT_DOUBLE_EQ(row(out, "tp")["bytes_per_gpu_step"].get<double>(), tp["bytes_sent_per_gpu"].get<double>());
  EXPECT_EQ(row(out, "tp")["messages_per_step"], 64);
  EXPECT_EQ(row(out, "ep")["messages_per_step"], 64);
  EXPECT_EQ(row(out, "cp")["messages_per_step"], 32 * 7);
}

TEST(Parallelisms, WhereEachBelongsFollowsTheRule) {
  const json out = evaluate({{"op", "parallelisms"}, {"model", "llama3_70b"}});
  ASSERT_EQ(error_message(out), "") << out;
  // §6.2: TP's all-reduces over InfiniBand take more than the weight read: inside NVLink.
  EXPECT_EQ(row(out, "tp")["belongs_on"], "nvlink_domain");
  EXPECT_GT(row(out, "tp")["nic_share"].get<double>(), out["cross_share"].get<double>());
  // §6.3: a pipeline's one activation a boundary may cross nodes.
  EXPECT_EQ(row(out, "pp")["belongs_on"], "across_nodes");
  EXPECT_EQ(row(out, "ep")["belongs_on"], "no_experts");  // a dense model
  // Degree 1: nothing sent, nothing to place.
  const json one = evaluate({{"op", "parallelisms"}, {"tp", 1}, {"pp", 1}, {"ep", 1}, {"cp", 1}});
  for (const char* id : {"tp", "sp", "pp", "ep", "cp"}) EXPECT_EQ(row(one, id)["belongs_on"], "none") << id;
  // A long prompt: a ring step's compute hides the NIC's KV block, and ring attention may cross.
  const json ring = evaluate({{"op", "parallelisms"}, {"model", "llama3_70b"}, {"phase", "prefill"}, {"tokens", 1000000}});
  EXPECT_TRUE(row(ring, "cp")["hidden_on_nic"].get<bool>());
  EXPECT_EQ(row(ring, "cp")["belongs_on"], "across_nodes");
  // 17,440 tokens: above the bandwidth-only threshold, but a step's NIC transfer with its alpha
  // outlasts the step's attention, so the KV ring stays inside NVLink. At every length the
  // placement follows the times the row shows (a step's compute is the row's per layer and block).
  for (double tokens : {4096.0, 17440.0, 32768.0, 131072.0, 1000000.0}) {
    const json out = evaluate({{"op", "parallelisms"}, {"model", "llama3_70b"}, {"phase", "prefill"}, {"tokens", tokens}});
    const json cp = row(out, "cp");
    const double step_compute_s = cp["compute_time_s"].get<double>() / (80.0 * 8.0);
    const bool covered = step_compute_s >= cp["nic_message_time_s"].get<double>();
    EXPECT_EQ(cp["hidden_on_nic"].get<bool>(), covered) << tokens;
    EXPECT_EQ(cp["belongs_on"], covered ? "across_nodes" : "nvlink_domain") << tokens;
  }
  const json cp = row(evaluate({{"op", "parallelisms"}, {"model", "llama3_70b"}, {"phase", "prefill"}, {"tokens", 17440}}), "cp");
  EXPECT_EQ(cp["belongs_on"], "nvlink_domain");
}

TEST(Parallelisms, RefusalsNameTheField) {
  EXPECT_NE(error_message(evaluate({{"op", "parallelisms"}, {"pp", 33}})).find("'pp'"), std::string::npos);  // Mixtral has 32 layers
  EXPECT_NE(error_message(evaluate({{"op", "parallelisms"}, {"ep", 3}})).find("'ep'"), std::string::npos);
  EXPECT_NE(error_message(evaluate({{"op", "parallelisms"}, {"tokens", 0}})).find("'tokens'"), std::string::npos);
  EXPECT_NE(error_message(evaluate({{"op", "parallelisms"}, {"node", "dgx_a100"}})).find("'node'"), std::string::npos);
  EXPECT_NE(error_message(evaluate({{"op", "parallelisms"}, {"degree", 2}})).find("degree"), std::string::npos);
}

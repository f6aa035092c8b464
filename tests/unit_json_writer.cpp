// The answer writer: the text writer prints what the tree writer's tree dumps, for members
// written in or out of key order, and the calculator ops answer the same by text and by tree.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "api/api.hpp"
#include "base/json_writer.hpp"

using nlohmann::json;
using namespace commlab;

namespace {

std::string dumped(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// Members out of order, nested objects and arrays, every kind of value.
void write_sample(JsonWriter& w) {
  w.member("time_s", 2.1820444444444444e-06).member("bytes", 65536.0).member("steps", 30);
  w.key("candidates");
  w.begin_array();
  for (int i = 0; i < 3; ++i) {
    w.begin_object();
    w.member("z", i).member("a", -0.0).member("m", 1e300 * (i + 1));
    w.end_object();
  }
  w.end_array();
  w.member("latency_bound", true).member("empty", "").member("quoted", "say \"hi\"\n\\ é 微秒");
  w.key("link");
  w.begin_object();
  w.member("id", "nvlink4").member("beta_Bps", 3.6e11).member("alpha_s", 2e-6);
  w.end_object();
  w.member("big", -1234567890123LL).member("small", 1e-7).member("one", 1.0).member("n_half", 720000.0);
  w.key("none");
  w.value(nullptr);
  w.member("numbers", std::vector<double>{1.5, 0.0, -2e-9});
  const std::vector<int> ids = {3, 1};
  w.objects("rows", ids, [&](int id) { w.member("id", id).member("half", id / 2.0); });
  w.key("nested");
  w.begin_array();
  w.begin_array();
  w.end_array();
  w.begin_object();
  w.end_object();
  w.value(false);
  w.end_array();
}

}  // namespace

TEST(JsonWriter, TextIsTheTreesDump) {
  JsonTreeWriter tree;
  tree.begin_object();
  write_sample(tree);
  tree.member("op", "transfer");
  tree.end_object();
  JsonTextWriter text("op", "transfer");
  text.begin_object();
  write_sample(text);
  text.end_object();
  EXPECT_FALSE(text.saw_non_finite());
  EXPECT_EQ(text.take(), dumped(tree.take()));
}

TEST(JsonWriter, RootMemberGoesInKeyOrder) {
  for (const char* last : {"a", "n", "zz"}) {
    JsonTextWriter text("op", "x");
    text.begin_object();
    text.member(last, 1);
    text.end_object();
    json tree = {{last, 1}, {"op", "x"}};
    EXPECT_EQ(text.take(), dumped(tree)) << last;
  }
}

TEST(JsonWriter, NonFiniteNumberIsReported) {
  JsonTextWriter text;
  text.begin_object();
  text.member("x", std::numeric_limits<double>::infinity());
  text.end_object();
  EXPECT_TRUE(text.saw_non_finite());
}

TEST(JsonWriter, RepeatedKeyIsAWriterBug) {
  JsonTextWriter text;
  text.begin_object();
  text.member("b", 1).member("a", 2).member("b", 3);
  EXPECT_THROW(text.end_object(), std::logic_error);
}

// The ops that write their answers give the same text through evaluate(text) (the text
// writer) and evaluate(json) (the tree writer), answers and errors alike.
TEST(JsonWriter, CalculatorOpsAnswerTheSameByTextAndByTree) {
  const char* requests[] = {
      R"({"op":"transfer","link":"nvlink4","bytes":65536})",
      R"({"op":"transfer","link":{"alpha_s":1e-6,"beta_Bps":1e9},"bytes":"256 KB"})",
      R"({"op":"transfer","link":"ib","bytes":"1 GiB","efficiency":0.5})",
      R"({"op":"allreduce","algorithm":"auto","devices":64,"bytes":1000000,"link":"ib_ndr","in_switch_available":true})",
      R"({"op":"allreduce","algorithm":"hierarchical","nodes":4,"gpus_per_node":8,"bytes":1e9,"intra_link":"nvlink4","inter_link":"ib_ndr"})",
      R"({"op":"allreduce","algorithm":"double_binary_tree","devices":13,"bytes":1e8,"link":"nvlink4","chunks":7})",
      R"({"op":"collective","collective":"alltoall","devices":8,"bytes":1e6,"link":"nvlink4"})",
      R"({"op":"collective","collective":"sendrecv","bytes":1e6,"link":"pcie"})",
      R"({"op":"nccl","devices":8,"bytes":2.56e8,"link":"nvlink4","transport":"net","algorithms":["tree","ring"]})",
      R"({"op":"transfer","link":"warp","bytes":-1})",
      R"({"op":"allreduce","algorithm":"ring","devices":16,"bytes":1,"link":"ib","extra":1})",
      // The ops that built trees before they wrote (tests/README.md "Budgets": "Writers").
      R"({"op":"simulate","collective":"allreduce","algorithm":"double_binary_tree","devices":6,"bytes":1e6,"mode":"data","trace_limit":40})",
      R"({"op":"simulate","collective":"allreduce","algorithm":"hierarchical","nodes":2,"gpus_per_node":4,"bytes":1e6})",
      R"({"op":"simulate","collective":"sendrecv","devices":4,"bytes":1e6,"topology":"custom","link":"pcie"})",
      R"({"op":"simulate","collective":"allreduce","algorithm":"in_switch","devices":4,"bytes":1e6,"mode":"accounting"})",
      R"({"op":"pipeline","stages":3,"microbatches":2,"tokens":4,"timeline_tokens":2})",
      R"({"op":"tp","phase":"prefill","algorithm":"one_shot","tp":4})",
      R"({"op":"tp","algorithm":"ring","protocol":"LL128"})",
      R"({"op":"ring_attention","tokens_per_device":3,"devices":4})",
      R"({"op":"overlap","kind":"tp_prefill","chunks":3})",
      R"({"op":"overlap","kind":"chunked","compute_s":1,"comm_s":2,"chunks":3})",
      R"({"op":"kv_transfer","model":"llama3_8b"})",
      R"({"op":"presets"})",
      R"({"op":"links","efficiency":0.5})",
      R"({"op":"link.match","alpha_s":1,"beta_Bps":1})",
      R"({"op":"model.match","layers":80,"hidden":8192})",
      R"({"op":"memory","gpus":2})",
      R"({"op":"moe","ep":4})",
      R"({"op":"parallelisms","phase":"prefill"})",
      R"({"op":"sharding_check"})",
      R"({"op":"ring_attention_check","causal":true,"layout":"zigzag","tokens_per_device":4})",
      R"({"op":"gpudirect","bytes":1e6})",
      R"({"op":"pipeline","stages":3,"microbatches":2,"tokens":4,"bogus":1})",
  };
  for (const char* request : requests) {
    const std::string by_text = evaluate(std::string(request));
    const std::string by_tree = dumped(evaluate(json::parse(request)));
    EXPECT_EQ(by_text, by_tree) << request;
    const bool bad = std::string(request).find("warp") != std::string::npos ||
                     std::string(request).find("extra") != std::string::npos ||
                     std::string(request).find("bogus") != std::string::npos;
    EXPECT_EQ(json::parse(by_text).contains("error"), bad) << by_text;
  }
}

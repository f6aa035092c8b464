#include <gtest/gtest.h>
#include "api.hpp"
TEST(Smoke, Transfer) {
  auto out = commlab::evaluate(nlohmann::json{{"op","transfer"},{"link","nvlink4"},{"bytes",64000}});
  EXPECT_FALSE(out.contains("error")) << out.dump();
}

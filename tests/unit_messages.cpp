// Building messages: concat's pieces, substitute's templates (the judge's verdicts), and the
// one-call refusals reject() and refuse() that throw them.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "base/concat.hpp"
#include "base/error.hpp"

using namespace commlab;

TEST(Messages, ConcatJoinsPiecesOfEveryKind) {
  const std::string owned = "devices";
  EXPECT_EQ(concat({"field '", owned, "': value ", std::string_view("0"), ""}), "field 'devices': value 0");
  EXPECT_EQ(concat({}), "");
}

TEST(Messages, SubstituteFillsEachSlotWhereverItIsNamed) {
  EXPECT_EQ(substitute("Read {read}: not {read}.", {{"read", "4 us"}}), "Read 4 us: not 4 us.");
  EXPECT_EQ(substitute("{a}{b}", {{"a", "1"}, {"b", "2"}}), "12");
  EXPECT_EQ(substitute("读到 {read}：个数应是整数。", {{"read", "3"}}), "读到 3：个数应是整数。");
  EXPECT_EQ(substitute("{k}", {{"k", ""}}), "");
}

TEST(Messages, SubstituteKeepsWhatIsNoSlotAndNeverRereadsAValue) {
  EXPECT_EQ(substitute("{unknown} stays", {{"read", "x"}}), "{unknown} stays");
  EXPECT_EQ(substitute("an open { brace", {}), "an open { brace");
  EXPECT_EQ(substitute("a } alone", {}), "a } alone");
  // A student's typed text may hold braces: it is put in, not read as a template.
  EXPECT_EQ(substitute("Read {read}.", {{"read", "{read}{pct}"}, {"pct", "1%"}}), "Read {read}{pct}.");
}

TEST(Messages, RejectAndRefuseThrowThePiecesJoined) {
  try {
    reject({"compute.values[", "2", "].id: must be a string"});
    FAIL() << "reject returned";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "compute.values[2].id: must be a string");
  }
  try {
    refuse("out_of_range", {"field 'devices': value ", "0", " is not allowed"});
    FAIL() << "refuse returned";
  } catch (const RequestError& e) {
    EXPECT_EQ(e.code(), "out_of_range");
    EXPECT_STREQ(e.what(), "field 'devices': value 0 is not allowed");
  }
}

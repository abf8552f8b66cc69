// The checker of the spec section 8 catalogue (testbench/spec8/catalogue.h) on small
// hand-made catalogues: it must find a missing test, an uncatalogued one, a case number in a
// name that the case does not confirm, and a malformed catalogue.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "spec8/catalogue.h"

namespace {

using spec8::catalogue::Catalogue;
using spec8::catalogue::case_numbers;
using spec8::catalogue::check_suite;
using spec8::catalogue::is_spec8_test;
using spec8::catalogue::kCases;
using spec8::catalogue::parse;

// A well-formed catalogue of one suite "s": case 3 lists S.Spec8_03_A and S.Spec8_03_04_B, case 4
// lists S.Spec8_03_04_B (partly), every other case is not applicable.
nlohmann::json small_catalogue() {
  nlohmann::json j;
  j["suites"] = {"s"};
  j["cases"] = nlohmann::json::array();
  for (int n = 1; n <= kCases; ++n) {
    nlohmann::json c{{"case", n}, {"name", "case " + std::to_string(n)}};
    if (n == 3) c["s"] = {{"tests", {"S.Spec8_03_A", "S.Spec8_03_04_B"}}};
    else if (n == 4) c["s"] = {{"tests", {"S.Spec8_03_04_B"}}, {"partial", "half"}};
    else c["s"] = {{"na", "reason"}};
    j["cases"].push_back(c);
  }
  return j;
}

bool owned(const std::string& t) { return is_spec8_test(t, "S"); }

bool mentions(const std::vector<std::string>& errors, const std::string& what) {
  for (const auto& e : errors)
    if (e.find(what) != std::string::npos) return true;
  return false;
}

TEST(Spec8Catalogue, CaseNumbersFromNames) {
  EXPECT_EQ(case_numbers("Spec8_20_23_29_FlowMovesQueueKeepsTheId"), (std::vector<int>{20, 23, 29}));
  EXPECT_EQ(case_numbers("spec8_09_resize"), (std::vector<int>{9}));
  EXPECT_EQ(case_numbers("Spec8_01_NextCpuInvalid"), (std::vector<int>{1}));
  EXPECT_TRUE(case_numbers("seed_flow1_flow2_original").empty());
  EXPECT_TRUE(case_numbers("CatalogueMatchesTheSuite").empty());
  EXPECT_TRUE(is_spec8_test("S.Spec8_01_X", "S"));
  EXPECT_FALSE(is_spec8_test("T.Spec8_01_X", "S"));
  EXPECT_TRUE(is_spec8_test("T.Spec8_01_X"));
  EXPECT_FALSE(is_spec8_test("S.CatalogueMatchesTheSuite", "S"));
}

TEST(Spec8Catalogue, CleanSuitePasses) {
  std::vector<std::string> errors;
  const Catalogue cat = parse(small_catalogue(), errors);
  EXPECT_TRUE(errors.empty()) << errors.front();
  EXPECT_TRUE(check_suite(cat, "s", {"S.Spec8_03_A", "S.Spec8_03_04_B", "S.Other", "T.Spec8_09_X"}, owned).empty());
}

TEST(Spec8Catalogue, FindsMissingUnlistedAndMisnumberedTests) {
  std::vector<std::string> errors;
  const Catalogue cat = parse(small_catalogue(), errors);
  ASSERT_TRUE(errors.empty());
  // Renamed test: the catalogued name is gone and the new one is unknown.
  auto e = check_suite(cat, "s", {"S.Spec8_03_Renamed", "S.Spec8_03_04_B"}, owned);
  EXPECT_TRUE(mentions(e, "S.Spec8_03_A does not exist"));
  EXPECT_TRUE(mentions(e, "S.Spec8_03_Renamed is not in the catalogue"));
  EXPECT_EQ(e.size(), 2u);
  // A case number in the name that its case does not confirm.
  auto j = small_catalogue();
  j["cases"][3]["s"] = {{"na", "moved"}};  // case 4 drops S.Spec8_03_04_B
  const Catalogue cat2 = parse(j, errors);
  ASSERT_TRUE(errors.empty());
  e = check_suite(cat2, "s", {"S.Spec8_03_A", "S.Spec8_03_04_B"}, owned);
  EXPECT_TRUE(mentions(e, "carries case 4"));
  EXPECT_EQ(e.size(), 1u);
  EXPECT_TRUE(mentions(check_suite(cat, "nope", {}, owned), "no suite"));
}

TEST(Spec8Catalogue, RejectsMalformedCatalogues) {
  std::vector<std::string> errors;
  auto j = small_catalogue();
  j["cases"].erase(41);
  parse(j, errors);
  EXPECT_TRUE(mentions(errors, "41 cases"));

  errors.clear();
  j = small_catalogue();
  std::swap(j["cases"][0], j["cases"][1]);
  parse(j, errors);
  EXPECT_TRUE(mentions(errors, "out of order"));

  errors.clear();
  j = small_catalogue();
  j["cases"][5]["s"] = {{"na", "x"}, {"gap", "y"}};
  j["cases"][6].erase("s");
  j["cases"][7]["s"] = {{"na", "x"}, {"partial", "y"}};
  j["cases"][8]["s"] = {{"tests", nlohmann::json::array()}};
  j["cases"][9]["s"] = {{"na", ""}};
  j["cases"][10]["s"] = {{"na", "x"}, {"why", "y"}};
  parse(j, errors);
  EXPECT_TRUE(mentions(errors, "case 6 / s: exactly one of"));
  EXPECT_TRUE(mentions(errors, "case 7 / s: missing"));
  EXPECT_TRUE(mentions(errors, "case 8 / s: \"partial\" only goes with"));
  EXPECT_TRUE(mentions(errors, "case 9 / s: \"tests\" must be a non-empty list"));
  EXPECT_TRUE(mentions(errors, "case 10 / s: \"na\" must be a non-empty string"));
  EXPECT_TRUE(mentions(errors, "case 11 / s: unknown field \"why\""));
}

}  // namespace

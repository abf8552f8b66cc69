// The spec section 8 catalogue (testbench/spec8/cases.json) as the GoogleTest suites read it:
// the 42 corner cases, and per suite the tests that cover each one or why none does.
//
// A suite checks itself against it with `check_suite`: every test the catalogue names for the
// suite is registered, every registered Spec8_* test of the suite is in the catalogue, and each
// case number a test's name carries (Spec8_20_23_29_...) lists that test. The scenario traces
// are checked the same way from CMake (testbench/spec8/check_traces.cmake).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace spec8 {
namespace catalogue {

constexpr int kCases = 42;

// One suite's answer for one case: `tests` (with `partial` naming what they leave out), or
// `na` (the suite cannot express the case), or `gap` (it could, nothing does yet).
struct Entry {
  std::vector<std::string> tests;
  std::string partial;
  std::string na;
  std::string gap;
};

struct Case {
  int number = 0;
  std::string name;
  std::map<std::string, Entry> suites;
};

struct Catalogue {
  std::vector<std::string> suites;
  std::vector<Case> cases;
};

// The case numbers a test or trace name carries: "Spec8_20_23_29_FlowMoves" -> {20, 23, 29},
// "spec8_09_resize" -> {9}; names that do not start with Spec8_/spec8_ carry none.
inline std::vector<int> case_numbers(const std::string& name) {
  std::vector<int> out;
  if (name.size() < 5 || (name.compare(0, 5, "Spec8") != 0 && name.compare(0, 5, "spec8") != 0))
    return out;
  size_t i = 5;
  while (i + 1 < name.size() && name[i] == '_' && std::isdigit(static_cast<unsigned char>(name[i + 1]))) {
    size_t j = i + 1;
    int n = 0;
    while (j < name.size() && std::isdigit(static_cast<unsigned char>(name[j]))) n = n * 10 + (name[j++] - '0');
    out.push_back(n);
    i = j;
  }
  return out;
}

// Reads the catalogue and checks its shape (cases 1..42 in order, every suite answered once).
// Problems go to `errors`; what could be read is returned.
inline Catalogue parse(const nlohmann::json& j, std::vector<std::string>& errors) {
  Catalogue cat;
  auto str = [&](const nlohmann::json& o, const char* key, const std::string& where) -> std::string {
    if (!o.contains(key)) return {};
    if (!o[key].is_string() || o[key].get<std::string>().empty()) {
      errors.push_back(where + ": \"" + key + "\" must be a non-empty string");
      return {};
    }
    return o[key].get<std::string>();
  };
  if (!j.is_object() || !j.contains("suites") || !j["suites"].is_array() || !j.contains("cases") ||
      !j["cases"].is_array()) {
    errors.push_back("catalogue: needs an object with arrays \"suites\" and \"cases\"");
    return cat;
  }
  for (const auto& s : j["suites"]) {
    if (s.is_string()) cat.suites.push_back(s.get<std::string>());
    else errors.push_back("catalogue: \"suites\" holds a non-string");
  }
  for (const auto& c : j["cases"]) {
    Case k;
    if (!c.is_object() || !c.contains("case") || !c["case"].is_number_integer()) {
      errors.push_back("catalogue: case " + std::to_string(cat.cases.size() + 1) + " has no number");
      continue;
    }
    k.number = c["case"].get<int>();
    const std::string where = "case " + std::to_string(k.number);
    if (k.number != static_cast<int>(cat.cases.size()) + 1)
      errors.push_back(where + ": out of order (expected case " + std::to_string(cat.cases.size() + 1) + ")");
    k.name = str(c, "name", where);
    if (k.name.empty()) errors.push_back(where + ": no name");
    for (const auto& s : cat.suites) {
      const std::string w = where + " / " + s;
      if (!c.contains(s) || !c[s].is_object()) {
        errors.push_back(w + ": missing");
        continue;
      }
      const auto& o = c[s];
      Entry e;
      if (o.contains("tests")) {
        if (!o["tests"].is_array() || o["tests"].empty()) errors.push_back(w + ": \"tests\" must be a non-empty list");
        else
          for (const auto& t : o["tests"]) {
            if (t.is_string() && !t.get<std::string>().empty()) e.tests.push_back(t.get<std::string>());
            else errors.push_back(w + ": a test name is not a non-empty string");
          }
      }
      e.partial = str(o, "partial", w);
      e.na = str(o, "na", w);
      e.gap = str(o, "gap", w);
      const int forms = int(o.contains("tests")) + int(o.contains("na")) + int(o.contains("gap"));
      if (forms != 1) errors.push_back(w + ": exactly one of \"tests\", \"na\", \"gap\"");
      if (o.contains("partial") && !o.contains("tests")) errors.push_back(w + ": \"partial\" only goes with \"tests\"");
      for (auto it = o.begin(); it != o.end(); ++it)
        if (it.key() != "tests" && it.key() != "partial" && it.key() != "na" && it.key() != "gap")
          errors.push_back(w + ": unknown field \"" + it.key() + "\"");
      k.suites[s] = e;
    }
    cat.cases.push_back(k);
  }
  if (cat.cases.size() != static_cast<size_t>(kCases))
    errors.push_back("catalogue: " + std::to_string(cat.cases.size()) + " cases, spec section 8 has " +
                     std::to_string(kCases));
  return cat;
}

inline Catalogue load(const std::string& path, std::vector<std::string>& errors) {
  std::ifstream in(path);
  if (!in) {
    errors.push_back("cannot open " + path);
    return {};
  }
  nlohmann::json j;
  try {
    in >> j;
  } catch (const nlohmann::json::exception& e) {
    errors.push_back(path + ": " + e.what());
    return {};
  }
  return parse(j, errors);
}

#ifdef FLOWSTEER_SPEC8_CATALOGUE
inline Catalogue load(std::vector<std::string>& errors) { return load(FLOWSTEER_SPEC8_CATALOGUE, errors); }
#endif

// Checks one suite against the catalogue. `present`: the tests the suite has (full GoogleTest
// names "Suite.Test", or trace names); `owned(name)`: whether a present test belongs to this
// suite and must therefore be catalogued. Returns one line per problem.
inline std::vector<std::string> check_suite(const Catalogue& cat, const std::string& suite,
                                            const std::vector<std::string>& present,
                                            const std::function<bool(const std::string&)>& owned) {
  std::vector<std::string> errors;
  if (std::find(cat.suites.begin(), cat.suites.end(), suite) == cat.suites.end()) {
    errors.push_back("the catalogue has no suite \"" + suite + "\"");
    return errors;
  }
  const std::set<std::string> have(present.begin(), present.end());
  std::map<std::string, std::set<int>> listed;  // test -> cases that list it
  for (const auto& c : cat.cases) {
    auto it = c.suites.find(suite);
    if (it == c.suites.end()) continue;
    for (const auto& t : it->second.tests) {
      listed[t].insert(c.number);
      if (!have.count(t))
        errors.push_back("case " + std::to_string(c.number) + " (" + c.name + "): " + suite + " test " + t +
                         " does not exist");
    }
  }
  auto short_name = [](const std::string& t) {
    const auto dot = t.find('.');
    return dot == std::string::npos ? t : t.substr(dot + 1);
  };
  for (const auto& [t, cases] : listed)
    for (int n : case_numbers(short_name(t)))
      if (!cases.count(n))
        errors.push_back(suite + " test " + t + " carries case " + std::to_string(n) +
                         " in its name but case " + std::to_string(n) + " does not list it");
  for (const auto& t : present)
    if (owned(t) && !listed.count(t))
      errors.push_back(suite + " test " + t + " is not in the catalogue (testbench/spec8/cases.json)");
  return errors;
}

// Every test registered in this binary, "Suite.Test", filtered or not.
inline std::vector<std::string> registered_tests() {
  std::vector<std::string> out;
  const auto* ut = ::testing::UnitTest::GetInstance();
  for (int i = 0; i < ut->total_test_suite_count(); ++i) {
    const auto* ts = ut->GetTestSuite(i);
    for (int k = 0; k < ts->total_test_count(); ++k)
      out.push_back(std::string(ts->name()) + "." + ts->GetTestInfo(k)->name());
  }
  return out;
}

// True for "Suite.Spec8_..." (with `suite` empty: any suite).
inline bool is_spec8_test(const std::string& full, const std::string& suite = {}) {
  const auto dot = full.find('.');
  if (dot == std::string::npos) return false;
  if (!suite.empty() && full.compare(0, dot, suite) != 0) return false;
  return full.compare(dot + 1, 6, "Spec8_") == 0;
}

// The whole check for a GoogleTest suite, as one assertion per problem.
inline void expect_suite_matches(const std::string& suite, const std::function<bool(const std::string&)>& owned) {
  std::vector<std::string> errors;
#ifdef FLOWSTEER_SPEC8_CATALOGUE
  const Catalogue cat = load(errors);
#else
  const Catalogue cat;
  errors.push_back("built without FLOWSTEER_SPEC8_CATALOGUE (the path of testbench/spec8/cases.json)");
#endif
  for (const auto& e : errors) ADD_FAILURE() << e;
  if (!errors.empty()) return;
  for (const auto& e : check_suite(cat, suite, registered_tests(), owned)) ADD_FAILURE() << e;
}

}  // namespace catalogue
}  // namespace spec8

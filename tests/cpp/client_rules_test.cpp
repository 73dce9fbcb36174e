// SPEC §1.3: a rule only the other SDK checks before sending is a warning for this client, with a
// note in its hint. The request compiler raises every client rule today; the engine applies the
// same rule to what it adds (engine::Findings), through the same two functions.
#include <gtest/gtest.h>

#include "engine/rule_input.h"
#include "sandgate/sandgate.h"

using namespace sandgate;

namespace {

void no_text(const FindingContext&, const Finding&, std::string&, std::string&) {}

TEST(ClientRules, only_the_other_sdks_rule_is_the_other_clients) {
  EXPECT_TRUE(is_other_clients_rule(Side::python, Client::typescript));
  EXPECT_TRUE(is_other_clients_rule(Side::typescript, Client::python));
  for (Side side : {Side::server, Side::python_server, Side::typescript_server, Side::runtime, Side::input, Side::lint}) {
    EXPECT_FALSE(is_other_clients_rule(side, Client::python));
    EXPECT_FALSE(is_other_clients_rule(side, Client::typescript));
  }
  EXPECT_FALSE(is_other_clients_rule(Side::python, Client::python));
  EXPECT_FALSE(is_other_clients_rule(Side::typescript, Client::typescript));
  std::string none, own = "quote it";
  add_other_client_note(none, Side::python);
  add_other_client_note(own, Side::typescript);
  EXPECT_EQ(none, "only the Python SDK rejects this before sending");
  EXPECT_EQ(own, "quote it (only the TypeScript SDK rejects this before sending)");
}

TEST(ClientRules, the_engine_makes_the_other_sdks_error_a_warning) {
  SmallVector<Finding, 8> out;
  engine::Findings python(out, Client::python);
  const Finding& ts_rule = python.add(Code::TAG_DUPLICATE, engine::request_root(), no_text);  // a TypeScript rule
  EXPECT_EQ(ts_rule.severity, Severity::warning);
  EXPECT_TRUE(ts_rule.other_client);
  const Finding& py_rule = python.add(Code::SPILLOVER_CONFLICT, engine::request_root(), no_text);  // a Python rule
  EXPECT_EQ(py_rule.severity, Severity::error);
  EXPECT_FALSE(py_rule.other_client);
  EXPECT_TRUE(python.any_error());

  SmallVector<Finding, 8> out_ts;
  engine::Findings typescript(out_ts, Client::typescript);
  EXPECT_EQ(typescript.add(Code::TAG_DUPLICATE, engine::request_root(), no_text).severity, Severity::error);
  const Finding& other = typescript.add(Code::SPILLOVER_CONFLICT, engine::request_root(), no_text);
  EXPECT_EQ(other.severity, Severity::warning);
  EXPECT_TRUE(other.other_client);
  // A server rule is neither client's: it stays an error for both.
  const Finding& server = typescript.add(Code::RESOURCE_ABOVE_MAX, engine::request_root(), no_text);
  EXPECT_EQ(server.severity, Severity::error);
  EXPECT_FALSE(server.other_client);
}

}  // namespace

// R-TIME (SPEC §6.4): lifetime defaulting and the 30-day cap, max_timeout_seconds 1..300 with a
// clamp, operation timeouts against the lifetime, and the client's own timeouts.
#include <cmath>

#include "engine/rules.h"

namespace sandgate::engine {
namespace {

constexpr std::int64_t k_max_lifetime = 2592000;  // 30 days
constexpr std::int64_t k_default_lifetime = 600;
constexpr std::int64_t k_max_timeout = 300;
constexpr std::int64_t k_default_timeout = 30;

std::optional<double> number(const Cursor& c) {
  if (!c) return std::nullopt;
  if (c.node->is_int()) return static_cast<double>(c.node->integer);
  if (c.node->kind == NodeKind::number) return c.node->number;
  return std::nullopt;
}

// An error already reported at `path` (the schema's int32 range): one value, one diagnostic.
bool rejected(const Context& ctx, const std::string& path) {
  for (const auto& d : ctx.result.diagnostics) {
    if (d.severity == Severity::error && d.path == path) return true;
  }
  return false;
}

}  // namespace

void resolve_lifetime(Context& ctx) {
  Cursor root = ctx.root();
  // R-TIME-1, R-TIME-2
  Cursor life = root["max_lifetime_seconds"];
  std::int64_t explicit_value = 0;
  if (life && life.node->is_int() && !rejected(ctx, life.path)) {
    if (life.node->int_overflow || life.node->integer < 0 || life.node->integer > k_max_lifetime) {
      ctx.report(Code::LIFETIME_RANGE, life,
                 "max_lifetime_seconds is " + life.node->display() + "; it must be between 0 and 2592000 (30 days)",
                 life.node->integer < 0 ? "use 0 or leave it unset for the default" : "the longest lifetime is 30 days");
    } else {
      explicit_value = life.node->integer;
    }
  }
  if (explicit_value > 0) {
    ctx.lifetime = explicit_value;
    ctx.resolve("/max_lifetime_seconds", *life.node);
  } else if (ctx.pm->default_lifetime_seconds > 0) {
    ctx.lifetime = ctx.pm->default_lifetime_seconds;
    ctx.resolve("/max_lifetime_seconds", Node::make_int(ctx.lifetime), "policy.constraints.lifecycle.default_lifetime_seconds");
    ctx.touched("/max_lifetime_seconds", "R-TIME-2");
  } else {
    ctx.lifetime = k_default_lifetime;
    ctx.resolve("/max_lifetime_seconds", Node::make_int(ctx.lifetime), "platform");
    ctx.touched("/max_lifetime_seconds", "R-TIME-2");
  }

  // R-TIME-3: the server's placement wait.
  Cursor timeout = root["max_timeout_seconds"];
  if (timeout && timeout.node->is_int() && rejected(ctx, timeout.path)) {
    ctx.resolve("/max_timeout_seconds", Node::make_int(k_default_timeout), "platform");
  } else if (timeout && timeout.node->is_int()) {
    std::int64_t v = timeout.node->integer;
    if (v < 1) {
      ctx.report(Code::TIMEOUT_RANGE, timeout, "max_timeout_seconds is " + timeout.node->display() + "; the server accepts 1 to 300",
                 "leave it unset for the 30 s default");
      ctx.resolve("/max_timeout_seconds", *timeout.node);
    } else if (v > k_max_timeout || timeout.node->int_overflow) {
      ctx.report(Code::TIMEOUT_CLAMPED, timeout,
                 "max_timeout_seconds " + timeout.node->display() + " is above 300; the server clamps it to 300",
                 "write 300 (or less)");
      ctx.resolve("/max_timeout_seconds", Node::make_int(k_max_timeout), "platform");
      ctx.touched("/max_timeout_seconds", "R-TIME-3");
    } else {
      ctx.resolve("/max_timeout_seconds", *timeout.node);
    }
  } else if (!timeout) {
    ctx.resolve("/max_timeout_seconds", Node::make_int(k_default_timeout), "platform");
  }

  // R-TIME-4: an operation that would outlive the sandbox.
  if (Cursor op = root["timeout_seconds"]; auto v = number(op)) {
    if (*v >= static_cast<double>(ctx.lifetime)) {
      ctx.report(Code::OPERATION_TIMEOUT_EXCEEDS_LIFETIME, op,
                 "timeout_seconds " + op.node->display() + " is not below the sandbox's lifetime of " + std::to_string(ctx.lifetime) +
                     " s: the sandbox ends first",
                 "raise max_lifetime_seconds or lower timeout_seconds");
    }
  }

  // R-TIME-5: the client's own timeouts.
  for (const char* key : {"request_timeout_seconds", "poll_retry_budget_seconds", "create_retry_budget_seconds",
                          "poll_rpc_timeout_seconds"}) {
    Cursor c = root[key];
    auto v = number(c);
    if (!v) continue;
    bool strictly_positive = std::string_view(key) == "poll_rpc_timeout_seconds";
    if (!std::isfinite(*v) || *v < 0 || (strictly_positive && *v == 0)) {
      ctx.report(Code::CLIENT_TIMEOUT_INVALID, c,
                 std::string(key) + " is " + c.node->display() + "; it must be finite and " + (strictly_positive ? "> 0" : ">= 0"));
    }
  }
}

}  // namespace sandgate::engine

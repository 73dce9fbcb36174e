// N-PL (SPEC §5.4): placement_mode, runner_ids and placement_spillover, read once. Which runners
// are candidates depends on the inventory and is decided by `check` (engine/placement.cpp).
#include <unordered_map>

#include "model/request_compiler.h"
#include "util/text.h"

namespace sandgate::model {
namespace {

enum class Spillover : std::uint8_t { strict, cks_then_serverless, serverless_then_cks };

// "serverless", "CKS", "SANDBOX_MODE_CKS" → the mode; "unspecified" or "" → unset; else invalid.
enum class ModeParse { serverless, cks, unset, invalid };
ModeParse parse_mode(std::string_view text) {
  std::string m = ascii_lower(text);
  if (m.rfind("sandbox_mode_", 0) == 0) m = m.substr(13);
  if (m == "serverless") return ModeParse::serverless;
  if (m == "cks") return ModeParse::cks;
  if (m == "unspecified" || m.empty()) return ModeParse::unset;
  return ModeParse::invalid;
}

// PlacementSpillover(value.lower()); anything else is its ValueError (and strict is kept).
Spillover read_spillover(RequestCompiler& c, const Cursor& at) {
  if (!at || !at.node->is_string()) return Spillover::strict;
  std::string s = ascii_lower(at.node->text);
  if (s == "strict") return Spillover::strict;
  if (s == "cks_then_serverless") return Spillover::cks_then_serverless;
  if (s == "serverless_then_cks") return Spillover::serverless_then_cks;
  c.report(Code::SPILLOVER_INVALID, at, at.node->display() + " is not a valid PlacementSpillover",
           "use \"strict\", \"cks_then_serverless\" or \"serverless_then_cks\"");
  return Spillover::strict;
}

}  // namespace

void check_spillover(RequestCompiler& c, const Cursor& at) { read_spillover(c, at); }

void read_placement(RequestCompiler& c) {
  RequestModel& m = c.m;
  std::optional<PlacementMode> explicit_mode;
  Cursor mode_at = c.field("placement_mode");
  if (mode_at) m.mode_at = origin_of(mode_at);
  if (mode_at && mode_at.node->is_string()) {
    // cwsandbox's PlacementMode(value.lower()) takes only unspecified, serverless and cks.
    // SPEC §5.4 accepts the proto's SANDBOX_MODE_* names too: under Python that is a warning
    // (docs/sdk-differences.md, placement-mode-proto-names); an empty string is the SDK's error.
    if (std::string lower = ascii_lower(mode_at.node->text);
        parse_mode(lower) != ModeParse::invalid && lower != "serverless" && lower != "cks" && lower != "unspecified") {
      Diagnostic& d = c.report(Code::PYTHON_CLIENT_RULE, mode_at, "'" + lower + "' is not a valid PlacementMode for the Python SDK",
                               "the Python SDK takes \"serverless\", \"cks\" or \"unspecified\" (any case)");
      if (!lower.empty()) d.severity = Severity::warning;
    }
    switch (parse_mode(mode_at.node->text)) {
      case ModeParse::invalid:
        c.report(Code::PLACEMENT_MODE_INVALID, mode_at, mode_at.node->display() + " is not a valid placement mode",
                 "use \"serverless\" or \"cks\"");
        break;
      case ModeParse::serverless: explicit_mode = PlacementMode::serverless; break;
      case ModeParse::cks: explicit_mode = PlacementMode::cks; break;
      case ModeParse::unset: break;
    }
  }
  bool from_option = false;
  if (!c.options.placement.empty()) {
    ModeParse p = parse_mode(c.options.placement);
    if (p == ModeParse::serverless || p == ModeParse::cks) {
      explicit_mode = p == ModeParse::cks ? PlacementMode::cks : PlacementMode::serverless;
      from_option = true;
    }
  }

  // runner_ids: non-blank, unique, at most 100 entries and 64 KiB.
  Cursor ids = c.field("runner_ids");
  if (ids) m.runner_ids_at = origin_of(ids);
  // id → index in m.runner_ids: a hash map past a few ids, a scan below.
  std::unordered_map<std::string_view, std::size_t> first;
  auto earlier = [&](std::string_view v) -> std::optional<std::size_t> {
    if (ids.size() <= 16) {
      for (std::size_t k = 0; k < m.runner_ids.size(); ++k) {
        if (m.runner_ids[k].value == v) return k;
      }
      return std::nullopt;
    }
    auto it = first.find(v);
    return it == first.end() ? std::nullopt : std::optional<std::size_t>(it->second);
  };
  std::size_t total_bytes = 0;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    Cursor id = ids.at(i);
    if (!id.node->is_string()) continue;
    const std::string& v = id.node->text;
    total_bytes += v.size();
    if (v.find_first_not_of(" \t\r\n") == std::string::npos) {
      c.report(Code::RUNNER_IDS_INVALID, id, "runner_ids[" + std::to_string(i) + "] is blank", "remove it");
      continue;
    }
    if (auto k = earlier(v)) {
      Diagnostic& d = c.report(Code::RUNNER_IDS_INVALID, id, "runner id \"" + v + "\" is listed twice", "list each runner once");
      c.relate(d, m.runner_ids[*k].origin, "first listed here");
      continue;
    }
    if (ids.size() > 16) first.emplace(v, m.runner_ids.size());
    m.runner_ids.push_back(Text{v, origin_of(id), true});
  }
  if (ids.size() > 100) {
    c.report(Code::RUNNER_IDS_INVALID, ids, "runner_ids has " + std::to_string(ids.size()) + " entries; at most 100 are accepted");
  }
  if (total_bytes > 64 * 1024) {
    c.report(Code::RUNNER_IDS_INVALID, ids, "runner_ids holds " + std::to_string(total_bytes) + " bytes; at most 64 KiB are accepted");
  }

  Cursor spill_at = c.field("placement_spillover");
  Spillover spill = read_spillover(c, spill_at);

  bool has_ids = !m.runner_ids.empty();
  // cwsandbox's two runner-id conflicts ask whether the list is non-empty, before it looks at the
  // entries: a list whose entries are all refused still names the conflict.
  const bool listed = ids.size() > 0;
  m.mode_explicit = explicit_mode.has_value();
  if (explicit_mode) {
    m.mode = *explicit_mode;
    m.mode_from = from_option ? ModeSource::option : ModeSource::request;
  } else {
    m.mode = spill == Spillover::cks_then_serverless || has_ids ? PlacementMode::cks : PlacementMode::serverless;
    // The SDKs send CKS when runner_ids are given; the server's default is serverless.
    m.mode_from = has_ids || spill != Spillover::strict ? ModeSource::sdk : ModeSource::platform;
  }

  bool serverless = m.mode == PlacementMode::serverless;
  if (listed && m.mode_explicit && serverless) {  // `if runner_ids and mode == SERVERLESS`
    c.report(Code::RUNNER_IDS_WITH_SERVERLESS, ids, "runner_ids requires placement_mode=CKS, but placement_mode is serverless",
             "drop runner_ids, or set placement_mode=\"cks\"");
  }
  if (spill == Spillover::cks_then_serverless && m.mode_explicit && serverless) {
    c.report(Code::SPILLOVER_CONFLICT, spill_at, "cks_then_serverless starts on CKS, but placement_mode is serverless",
             "leave placement_mode unset or set it to \"cks\"");
  }
  if (spill == Spillover::serverless_then_cks && ((m.mode_explicit && !serverless) || listed)) {
    c.report(Code::SPILLOVER_CONFLICT, spill_at,
             !listed ? "serverless_then_cks starts on serverless, but placement_mode is cks"
                     : "serverless_then_cks cannot be combined with runner_ids",
             "leave placement_mode unset and drop runner_ids, or use \"cks_then_serverless\"");
  }
}

}  // namespace sandgate::model

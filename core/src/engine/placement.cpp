// N-PL (SPEC §5.4) and the runner inventory (SPEC §1.4): which mode, which runners, and so which
// policy the request is checked against.
#include <algorithm>
#include <unordered_set>

#include "engine/rules.h"

namespace sandgate::engine {
namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

// "serverless", "CKS", "SANDBOX_MODE_CKS" → "serverless"/"cks"; "unspecified" → ""; else nullopt.
std::optional<std::string> parse_mode(const std::string& text) {
  std::string m = lower(text);
  if (m.rfind("sandbox_mode_", 0) == 0) m = m.substr(13);
  if (m == "serverless" || m == "cks") return m;
  if (m == "unspecified" || m.empty()) return std::string();
  return std::nullopt;
}

}  // namespace

void resolve_placement(Context& ctx) {
  Cursor root = ctx.root();
  std::string explicit_mode;
  Cursor mode_at = root["placement_mode"];
  if (mode_at && mode_at.node->is_string()) {
    auto m = parse_mode(mode_at.node->text);
    if (!m) {
      ctx.report(Code::PLACEMENT_MODE_INVALID, mode_at,
                 mode_at.node->display() + " is not a valid placement mode", "use \"serverless\" or \"cks\"");
    } else {
      explicit_mode = *m;
    }
  }
  if (!ctx.options.placement.empty()) {
    if (auto m = parse_mode(ctx.options.placement); m && !m->empty()) explicit_mode = *m;
  }

  // runner_ids: non-blank, unique, at most 100 entries and 64 KiB.
  Cursor ids = root["runner_ids"];
  std::vector<std::string> runner_ids;
  std::unordered_set<std::string_view> listed;  // views of the ids' text in the merged request
  std::size_t total_bytes = 0;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    Cursor id = ids.at(i);
    if (!id.node->is_string()) continue;
    const std::string& v = id.node->text;
    total_bytes += v.size();
    if (v.find_first_not_of(" \t\r\n") == std::string::npos) {
      ctx.report(Code::RUNNER_IDS_INVALID, id, "runner_ids[" + std::to_string(i) + "] is blank", "remove it");
      continue;
    }
    if (!listed.insert(v).second) {
      ctx.report(Code::RUNNER_IDS_INVALID, id, "runner id \"" + v + "\" is listed twice", "list each runner once");
      continue;
    }
    runner_ids.push_back(v);
  }
  if (ids.size() > 100) {
    ctx.report(Code::RUNNER_IDS_INVALID, ids, "runner_ids has " + std::to_string(ids.size()) + " entries; at most 100 are accepted");
  }
  if (total_bytes > 64 * 1024) {
    ctx.report(Code::RUNNER_IDS_INVALID, ids, "runner_ids holds " + std::to_string(total_bytes) + " bytes; at most 64 KiB are accepted");
  }

  std::string spill = "strict";
  Cursor spill_at = root["placement_spillover"];
  if (spill_at && spill_at.node->is_string()) {
    std::string s = lower(spill_at.node->text);
    if (s != "strict" && s != "cks_then_serverless" && s != "serverless_then_cks") {
      ctx.report(Code::SPILLOVER_INVALID, spill_at, spill_at.node->display() + " is not a valid PlacementSpillover",
                 "use \"strict\", \"cks_then_serverless\" or \"serverless_then_cks\"");
    } else {
      spill = s;
    }
  }

  ctx.mode_explicit = !explicit_mode.empty();
  if (ctx.mode_explicit) {
    ctx.mode = explicit_mode;
    Node value = Node::make_string(ctx.mode);
    value.origin = mode_at ? mode_at.node->origin : k_sandbox;
    ctx.resolve("/placement_mode", value, ctx.options.placement.empty() ? "" : "option");
  } else {
    ctx.mode = spill == "cks_then_serverless" || !runner_ids.empty() ? "cks" : "serverless";
    // The SDKs send CKS when runner_ids are given; the server's default is serverless.
    ctx.resolve("/placement_mode", Node::make_string(ctx.mode), !runner_ids.empty() || spill != "strict" ? "sdk" : "platform");
    ctx.touched("/placement_mode", "N-PL");
  }

  if (!runner_ids.empty() && ctx.mode_explicit && ctx.mode == "serverless") {
    ctx.report(Code::RUNNER_IDS_WITH_SERVERLESS, ids, "runner_ids requires placement_mode=CKS, but placement_mode is serverless",
               "drop runner_ids, or set placement_mode=\"cks\"");
  }
  if (spill == "cks_then_serverless" && ctx.mode_explicit && ctx.mode == "serverless") {
    ctx.report(Code::SPILLOVER_CONFLICT, spill_at, "cks_then_serverless starts on CKS, but placement_mode is serverless",
               "leave placement_mode unset or set it to \"cks\"");
  }
  if (spill == "serverless_then_cks" && ((ctx.mode_explicit && ctx.mode == "cks") || !runner_ids.empty())) {
    ctx.report(Code::SPILLOVER_CONFLICT, spill_at,
               runner_ids.empty() ? "serverless_then_cks starts on serverless, but placement_mode is cks"
                                  : "serverless_then_cks cannot be combined with runner_ids",
               "leave placement_mode unset and drop runner_ids, or use \"cks_then_serverless\"");
  }
  if (ctx.mode == "serverless" && !ctx.org.serverless_allowed) {
    ctx.report(Code::SERVERLESS_NOT_ALLOWED, mode_at ? mode_at : root,
               "the organisation may not use serverless placement (serverless_allowed is false)",
               "place the sandbox on a CKS runner with placement_mode=\"cks\" and runner_ids");
  }

  // Candidates (SPEC §1.4).
  ctx.candidates.clear();
  if (ctx.mode == "serverless") {
    const model::Runner* own = nullptr;
    if (ctx.inventory) {
      for (const auto& r : ctx.inventory->runners) {
        if (r.mode == "serverless") {
          own = &r;
          break;
        }
      }
    }
    ctx.candidates.push_back(own ? own : &ctx.builtin_serverless);
    return;
  }
  if (!ctx.inventory) {
    ctx.anonymous_cks.id = runner_ids.empty() ? "" : runner_ids.front();
    ctx.candidates.push_back(&ctx.anonymous_cks);
    return;
  }
  if (!runner_ids.empty()) {
    for (std::size_t i = 0, j = 0; i < ids.size(); ++i) {
      Cursor id = ids.at(i);
      if (!id.node->is_string() || j >= runner_ids.size() || id.node->text != runner_ids[j]) continue;
      ++j;
      const model::Runner* r = ctx.inventory->find(id.node->text);
      if (!r) {
        ctx.report(Code::RUNNER_UNAVAILABLE, id, "runner \"" + id.node->text + "\" is not in the runner inventory",
                   "check the id with list_runners(); no eligible runner means a retryable unavailability");
      } else if (r->mode != "cks") {
        ctx.report(Code::RUNNER_UNAVAILABLE, id, "runner \"" + r->id + "\" is a " + r->mode + " runner, not a CKS one");
      } else {
        ctx.candidates.push_back(r);
      }
    }
    return;
  }
  for (const auto& r : ctx.inventory->runners) {
    if (r.mode == "cks") ctx.candidates.push_back(&r);
  }
  if (ctx.candidates.empty()) {
    ctx.report(Code::RUNNER_UNAVAILABLE, mode_at ? mode_at : root, "the runner inventory has no CKS runner",
               "add a CKS runner, or use serverless placement");
  }
}

void choose_primary_runner(Context& ctx, const std::shared_ptr<const Policy>& policy_argument) {
  ctx.primary = ctx.candidates.empty() ? nullptr : ctx.candidates.front();
  const Policy* policy = policy_argument.get();
  if (ctx.primary && ctx.primary->policy) policy = ctx.primary->policy.get();
  ctx.policy = policy;
  ctx.pm = policy ? &policy->model() : &ctx.empty_policy;
  if (!ctx.primary || ctx.primary->builtin) {
    ctx.result.runner_id = ctx.primary ? ctx.primary->id : "";
    return;
  }
  ctx.result.runner_id = ctx.primary->id;
  std::string others;
  for (std::size_t i = 1; i < ctx.candidates.size(); ++i) {
    ctx.result.other_candidates.push_back(ctx.candidates[i]->id);
    others += (i > 1 ? ", " : "") + ctx.candidates[i]->id;
  }
  std::string which = ctx.primary->policy ? "its own policy" : "the policy argument";
  ctx.report_input(Code::RUNNER_SELECTED, "runners", ctx.runners_file, ctx.primary->origin.path, ctx.primary->origin.mark,
                   "checked against runner \"" + ctx.primary->id + "\" and " + which +
                       (others.empty() ? "" : "; other candidates: " + others));
}

}  // namespace sandgate::engine

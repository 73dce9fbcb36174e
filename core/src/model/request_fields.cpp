// Reading annotations (R-ANN-3/4), lifetimes and timeouts (R-TIME-1/3/5), images, security
// contexts, runtime class and instance type into the typed request, with the rules that need
// nothing but the request.
#include <algorithm>
#include <cmath>

#include "model/request_compiler.h"
#include "util/net.h"
#include "util/text.h"

namespace sandgate::model {
namespace {

std::string hex_code_point(std::string_view s, std::size_t i) {
  // Decodes the UTF-8 sequence at i (the text is valid UTF-8) for a message like U+200B.
  auto u = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned cp = u(i);
  int extra = cp >= 0xF0 ? 3 : cp >= 0xE0 ? 2 : cp >= 0xC0 ? 1 : 0;
  cp &= extra == 3 ? 0x07u : extra == 2 ? 0x0Fu : extra == 1 ? 0x1Fu : 0x7Fu;
  for (int k = 1; k <= extra && i + static_cast<std::size_t>(k) < s.size(); ++k) cp = (cp << 6) | (u(i + static_cast<std::size_t>(k)) & 0x3Fu);
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04X", cp);
  return buf;
}

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}
bool alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// Kubernetes' IsQualifiedName: [prefix/]name, prefix a DNS-1123 subdomain (≤ 253), name ≤ 63 of
// [A-Za-z0-9][-A-Za-z0-9_.]*[A-Za-z0-9], ASCII only. Returns "" when valid, else why not.
std::string qualified_name_problem(std::string_view key) {
  for (std::size_t i = 0; i < key.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(key[i]);
    if (c >= 0x80) return "it contains the non-ASCII character " + hex_code_point(key, i);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') return "it contains white space";
    if (c < 0x20 || c == 0x7F) return "it contains a control character";
  }
  std::size_t slash = key.find('/');
  std::string_view name = key;
  if (slash != std::string_view::npos) {
    if (key.find('/', slash + 1) != std::string_view::npos) return "it has more than one '/'";
    std::string_view prefix = key.substr(0, slash);
    name = key.substr(slash + 1);
    if (prefix.empty()) return "the prefix before '/' is empty";
    if (prefix.size() > 253) return "the prefix is longer than 253 characters";
    if (!is_dns1123_subdomain(prefix)) {
      bool upper = std::any_of(prefix.begin(), prefix.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
      return upper ? "the prefix must be lowercase (a DNS subdomain)" : "the prefix is not a DNS subdomain (lowercase labels separated by dots)";
    }
  }
  if (name.empty()) return "the name part is empty";
  if (name.size() > 63) return "the name part is longer than 63 characters";
  if (!alnum(name.front()) || !alnum(name.back())) return "the name part must start and end with a letter or digit";
  if (!std::all_of(name.begin(), name.end(), name_char)) return "the name part may hold only letters, digits, '-', '_' and '.'";
  return {};
}

std::optional<double> number(const Cursor& c) {
  if (!c) return std::nullopt;
  if (c.node->is_int()) return static_cast<double>(c.node->integer);
  if (c.node->kind == NodeKind::number) return c.node->number;
  return std::nullopt;
}

constexpr std::int64_t k_max_lifetime = 2592000;  // 30 days
constexpr std::int64_t k_max_timeout = 300;

SecurityContext read_security(const Cursor& sc) {
  SecurityContext out;
  if (!sc || !sc.node->is_object()) return out;
  out.present = true;
  if (Cursor p = sc["privileged"]; p.boolean(false)) out.privileged_at = origin_of(p);
  Cursor caps = sc["capabilities_add"];
  for (std::size_t i = 0; i < caps.size(); ++i) {
    Cursor cap = caps.at(i);
    out.capabilities_add.push_back({cap.node->display(), capability_name(cap.str()), origin_of(cap)});
  }
  if (Cursor sp = sc["seccomp_profile"]; sp && sp.node->is_string() && !sp.node->text.empty()) {
    out.seccomp_profile = Text{sp.node->text, origin_of(sp), true};
  }
  return out;
}

}  // namespace

void read_annotations(RequestCompiler& c) {
  RequestModel& m = c.m;
  Cursor ann = c.field("annotations");
  if (!ann || !ann.node->is_object()) return;
  m.annotations_at = origin_of(ann);
  for (const Cursor& at : c.parts("annotations")) {
    Annotation a;
    a.key = at.member->key;
    a.origin = origin_of(at);
    a.string_value = at.node->is_string() && !a.key.empty();
    if (at.node->is_string()) a.value = at.node->text;
    // R-ANN-4 / R-ANN-3: the key must be well-formed before any prefix is compared with it.
    if (a.key.empty()) {
      c.report_key(Code::ANNOTATION_EMPTY_KEY, at, "an annotation has an empty key", "remove it");
      a.key_ok = false;
    } else if (std::string problem = qualified_name_problem(a.key); !problem.empty()) {
      c.report_key(Code::ANNOTATION_KEY_INVALID, at,
                   "annotation key " + shown_text(a.key) + " is not a valid Kubernetes qualified name: " + problem,
                   "keys are [prefix/]name: a lowercase DNS prefix, one '/', a name of letters, digits, '-', '_', '.'");
      a.key_ok = false;
    } else if (at.node->is_string() && at.node->text.empty()) {
      // R-ANN-4, client rule: the TypeScript SDK rejects empty values.
      c.report(Code::ANNOTATION_CLIENT_LIMIT, at, "annotation " + shown_text(a.key) + " has an empty value", "give it a value or remove it");
    }
    m.annotations.push_back(std::move(a));
  }
  if (m.annotations.size() > 100) {
    c.report(Code::ANNOTATION_CLIENT_LIMIT, ann, std::to_string(m.annotations.size()) + " annotations; the TypeScript SDK accepts at most 100");
  }
}

void read_lifetime(RequestCompiler& c) {
  RequestModel& m = c.m;
  // R-TIME-1
  Cursor life = c.field("max_lifetime_seconds");
  if (life && life.node->is_int() && !c.error_at(life.layer, life.path())) {
    if (life.node->int_overflow || life.node->integer < 0 || life.node->integer > k_max_lifetime) {
      c.report(Code::LIFETIME_RANGE, life,
               "max_lifetime_seconds is " + life.node->display() + "; it must be between 0 and 2592000 (30 days)",
               life.node->integer < 0 ? "use 0 or leave it unset for the default" : "the longest lifetime is 30 days");
    } else if (life.node->integer > 0) {
      m.lifetime = life.node->integer;
      m.lifetime_at = origin_of(life);
    }
  }

  // R-TIME-3: the server's placement wait.
  Cursor timeout = c.field("max_timeout_seconds");
  if (timeout) m.timeout_at = origin_of(timeout);
  if (!timeout) {
    m.timeout = RequestModel::Timeout::unset;
  } else if (!timeout.node->is_int()) {
    m.timeout = RequestModel::Timeout::invalid;
  } else if (std::any_of(c.diags.begin(), c.diags.end(), [&](const Diagnostic& d) {
               // The schema rejected the value; SG_REMOVED_KEY (SPEC §1.1) leaves R-TIME-3 to run.
               return d.severity == Severity::error && d.path == timeout.path() && d.code != Code::REMOVED_KEY;
             })) {
    m.timeout = RequestModel::Timeout::rejected;
  } else if (timeout.node->integer < 1) {
    c.report(Code::TIMEOUT_RANGE, timeout, "max_timeout_seconds is " + timeout.node->display() + "; the server accepts 1 to 300",
             "leave it unset for the 30 s default");
    m.timeout = RequestModel::Timeout::out_of_range;
    m.timeout_value = timeout.node->integer;
  } else if (timeout.node->integer > k_max_timeout || timeout.node->int_overflow) {
    c.report(Code::TIMEOUT_CLAMPED, timeout, "max_timeout_seconds " + timeout.node->display() + " is above 300; the server clamps it to 300",
             "write 300 (or less)");
    m.timeout = RequestModel::Timeout::clamped;
  } else {
    m.timeout = RequestModel::Timeout::value;
    m.timeout_value = timeout.node->integer;
  }

  // R-TIME-4 compares timeout_seconds with the resolved lifetime (check).
  if (Cursor op = c.field("timeout_seconds"); auto v = number(op)) {
    m.operation_timeout = *v;
    m.operation_timeout_text = op.node->display();
    m.operation_timeout_at = origin_of(op);
  }

  // R-TIME-5: the client's own timeouts.
  for (const char* key : {"request_timeout_seconds", "poll_retry_budget_seconds", "create_retry_budget_seconds",
                          "poll_rpc_timeout_seconds"}) {
    check_client_timeout(c, key, c.field(key));
  }
}

void check_client_timeout(RequestCompiler& c, std::string_view key, const Cursor& at) {
  auto v = number(at);
  if (!v) return;
  bool strictly_positive = key == "poll_rpc_timeout_seconds";
  if (!std::isfinite(*v) || *v < 0 || (strictly_positive && *v == 0)) {
    c.report(Code::CLIENT_TIMEOUT_INVALID, at,
             std::string(key) + " is " + at.node->display() + "; it must be finite and " + (strictly_positive ? "> 0" : ">= 0"));
  }
}

void read_image_security(RequestCompiler& c) {
  RequestModel& m = c.m;
  if (m.multi_container) {
    Cursor containers = c.field("containers");
    for (std::size_t i = 0; i < containers.size() && i < m.containers.size(); ++i) {
      Cursor ct = containers.at(i);
      if (Cursor img = ct["image"]; img && img.node->is_string() && !img.node->text.empty()) {
        m.containers[i].image = parse_image(img.node->text);
        m.containers[i].image_at = origin_of(img);
      }
      m.containers[i].security = read_security(ct["security_context"]);
    }
  } else if (Cursor img = c.field("container_image")) {
    m.image_default = false;
    m.image_at = origin_of(img);
    if (img.node->is_string() && !img.node->text.empty()) m.image = parse_image(img.node->text);
  } else if (m.from_template) {
    m.image_default = false;  // Sandbox(template_id=…) sends no image unless given: the template has one
  }
  m.security = read_security(c.field("security_context"));
  if (Cursor it = c.field("instance_type"); it && it.node->is_string() && !it.node->text.empty()) {
    m.instance_type = Text{it.node->text, origin_of(it), true};
  }
  if (Cursor pin = c.field("runtime_class"); pin && pin.node->is_string() && !pin.node->text.empty()) {
    m.runtime_class = Text{pin.node->text, origin_of(pin), true};
  }
}

}  // namespace sandgate::model

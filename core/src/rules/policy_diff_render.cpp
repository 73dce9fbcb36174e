// The policy diff as JSON (SPEC §10.3's object), as text for a terminal, and as Markdown for a
// pull-request comment.
#include <sstream>

#include "rules/policy_diff.h"
#include "stream/json_out.h"

namespace sandgate {
namespace {

std::string where(const std::optional<SourceLocation>& s) {
  if (!s) return {};
  return s->file + ":" + std::to_string(s->line);
}

// A value for one line of text: compact JSON, cut at `limit` characters.
std::string short_value(const std::optional<Node>& v, std::size_t limit = 60) {
  if (!v) return "(absent)";
  std::string s = node_to_json(*v);
  if (s.size() > limit) {
    std::size_t cut = limit;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 sequence
    s = s.substr(0, cut) + "…";
  }
  return s;
}

template <typename W>
void put_change_ref(W& w, const std::vector<StaticChange>& changes, const std::vector<std::size_t>& refs) {
  w.StartArray();
  for (std::size_t i : refs) {
    w.StartObject();
    w.Key("change");
    w.Uint64(i);
    w.Key("field");
    write_string(w, i < changes.size() ? changes[i].field : std::string());
    w.EndObject();
  }
  w.EndArray();
}

template <typename W>
void put_value(W& w, const std::optional<Node>& v) {
  if (v) {
    stream::put_node(w, *v);
  } else {
    w.Null();
  }
}

template <typename Fn>
std::string compact(Fn fn) {
  rapidjson::StringBuffer buf;
  JsonWriter<rapidjson::StringBuffer> w(buf);
  fn(w);
  return std::string(buf.GetString(), buf.GetSize());
}

std::string change_text(const StaticChange& c) {
  switch (c.kind) {
    case StaticChange::Kind::added: return "added " + short_value(c.new_value);
    case StaticChange::Kind::removed: return "removed " + short_value(c.old_value);
    case StaticChange::Kind::reordered: return "reordered";
    case StaticChange::Kind::changed: break;
  }
  return short_value(c.old_value) + " → " + short_value(c.new_value);
}

std::string record_name(const RecordDiff& r) {
  std::string s = "record " + std::to_string(r.line);
  if (r.id) s += " (id \"" + *r.id + "\")";
  return s;
}

std::string first_error_text(const RecordDiff& r) {
  if (r.errors.empty()) return {};
  const Diagnostic& d = r.errors.front();
  std::string s = std::string(d.name()) + " " + d.input + ":" + (d.path.empty() ? "/" : d.path) + ": " + d.message;
  if (r.errors.size() > 1) s += " (+" + std::to_string(r.errors.size() - 1) + " more)";
  return s;
}

std::string causes_text(const std::vector<StaticChange>& changes, const std::vector<std::size_t>& refs) {
  std::string s;
  for (std::size_t i : refs) {
    if (i >= changes.size()) continue;
    if (!s.empty()) s += "; ";
    s += changes[i].field;
    if (changes[i].list_item) s += " " + change_text(changes[i]);
  }
  return s;
}

std::string codes_text(const std::vector<std::string>& codes) {
  std::string s;
  for (const auto& c : codes) s += (s.empty() ? "" : ", ") + c;
  return s.empty() ? "(none)" : s;
}

std::string new_codes_text(const RecordDiff& r) {
  std::vector<std::string> codes;
  for (const auto& d : r.errors) {
    std::string c(d.name());
    if (std::find(codes.begin(), codes.end(), c) == codes.end()) codes.push_back(c);
  }
  return codes_text(codes);
}

const char* k_class_titles[k_diff_classes] = {"newly rejected", "newly accepted", "rejection changed",
                                              "resolution changed", "unchanged", "unreadable"};

std::size_t count_of(const PolicyDiff& d, DiffClass c) { return d.summary.counts[static_cast<std::size_t>(c)]; }

// A class count shown as a warning: newly rejected and unreadable records.
bool is_bad_class(const PolicyDiff& d, std::size_t i) { return (i == 0 || i == 5) && d.summary.counts[i] > 0; }

// The error an example record shows for a group of newly rejected records (its code), and the value
// change it shows for a group resolved differently (its pointer).
const Diagnostic* example_error(const RecordDiff& r, std::string_view code) {
  for (const auto& err : r.errors) {
    if (err.name() == code) return &err;
  }
  return nullptr;
}

const ValueChange* example_change(const RecordDiff& r, std::string_view pointer) {
  for (const auto& c : r.changes) {
    if (c.pointer == pointer) return &c;
  }
  return nullptr;
}

std::string md_escape(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

// Inline code in Markdown that survives any backticks in the value.
std::string md_code(const std::string& s) {
  std::string fence = "`";
  while (s.find(fence) != std::string::npos) fence += '`';
  std::string pad = (!s.empty() && (s.front() == '`' || s.back() == '`')) ? " " : "";
  return fence + pad + md_escape(s) + pad + fence;
}

}  // namespace

// ---- JSON ---------------------------------------------------------------------------------------

std::string diff_json_head(const PolicyDiff& d) {
  std::string head = compact([&](auto& w) {
    w.StartObject();
    w.Key("tool");
    w.String("sandgate");
    w.Key("version");
    w.String(SANDGATE_VERSION);
    w.Key("old");
    write_string(w, d.old_file);
    w.Key("new");
    write_string(w, d.new_file);
    w.Key("old_errors");
    w.StartArray();
    for (const auto& e : d.old_errors) stream::put_error(w, e);
    w.EndArray();
    w.Key("new_errors");
    w.StartArray();
    for (const auto& e : d.new_errors) stream::put_error(w, e);
    w.EndArray();
    w.Key("static_changes");
    w.StartArray();
    for (const auto& c : d.static_changes) {
      w.StartObject();
      w.Key("field");
      write_string(w, c.field);
      w.Key("pointer");
      write_string(w, c.pointer);
      w.Key("kind");
      write_string(w, to_string(c.kind));
      w.Key("old");
      put_value(w, c.old_value);
      w.Key("new");
      put_value(w, c.new_value);
      w.Key("old_source");
      write_string_or_null(w, where(c.old_source));
      w.Key("new_source");
      write_string_or_null(w, where(c.new_source));
      w.EndObject();
    }
    w.EndArray();
    w.Key("replayed");
    w.Bool(d.replayed);
    w.Key("requests");
    write_string_or_null(w, d.requests);
    w.Key("records");
    w.StartArray();
    w.EndArray();
    w.EndObject();
  });
  // Left open after "records": [ so that the records can follow one per line.
  head.resize(head.size() - 2);
  return head + "\n";
}

std::string record_diff_to_json(const RecordDiff& r, const std::vector<StaticChange>& changes) {
  return compact([&](auto& w) {
    w.StartObject();
    w.Key("record");
    w.Int(r.line);
    w.Key("index");
    w.Uint64(r.index);
    if (r.id) {
      w.Key("id");
      write_string(w, *r.id);
    }
    w.Key("class");
    write_string(w, to_string(r.cls));
    if (!r.errors.empty()) {
      w.Key("errors");
      w.StartArray();
      for (const auto& e : r.errors) stream::put_error(w, e);
      w.EndArray();
    }
    if (r.cls == DiffClass::newly_accepted || r.cls == DiffClass::rejection_changed) {
      w.Key("old_codes");
      w.StartArray();
      for (const auto& c : r.old_codes) write_string(w, c);
      w.EndArray();
    }
    if (!r.changes.empty()) {
      w.Key("changes");
      w.StartArray();
      for (const auto& c : r.changes) {
        w.StartObject();
        w.Key("pointer");
        write_string(w, c.pointer);
        w.Key("old");
        put_value(w, c.old_value);
        w.Key("new");
        put_value(w, c.new_value);
        w.EndObject();
      }
      w.EndArray();
    }
    if (r.cls == DiffClass::newly_rejected || r.cls == DiffClass::rejection_changed) {
      w.Key("caused_by");
      put_change_ref(w, changes, r.caused_by);
    }
    w.EndObject();
  });
}

std::string diff_json_tail(const PolicyDiff& d) {
  std::string tail = compact([&](auto& w) {
    w.StartObject();
    w.Key("counts");
    w.StartObject();
    for (std::size_t i = 0; i < k_diff_classes; ++i) {
      write_string(w, to_string(static_cast<DiffClass>(i)));
      w.Uint64(d.summary.counts[i]);
    }
    w.EndObject();
    w.Key("newly_rejected_by_code");
    w.StartArray();
    for (const auto& g : d.summary.newly_rejected_by_code) {
      w.StartObject();
      w.Key("code");
      write_string(w, g.key);
      w.Key("count");
      w.Uint64(g.count);
      w.Key("caused_by");
      put_change_ref(w, d.static_changes, g.caused_by);
      w.Key("examples");
      w.StartArray();
      for (const auto& e : g.examples) w.Int(e.line);
      w.EndArray();
      w.EndObject();
    }
    w.EndArray();
    w.Key("resolution_changed_by_pointer");
    w.StartArray();
    for (const auto& g : d.summary.resolution_changed_by_pointer) {
      w.StartObject();
      w.Key("pointer");
      write_string(w, g.key);
      w.Key("count");
      w.Uint64(g.count);
      w.Key("examples");
      w.StartArray();
      for (const auto& e : g.examples) w.Int(e.line);
      w.EndArray();
      w.EndObject();
    }
    w.EndArray();
    w.Key("error");
    write_string_or_null(w, d.error);
    w.Key("ok");
    w.Bool(d.ok());
    w.EndObject();
  });
  return "]," + tail.substr(1) + "\n";
}

std::string diff_to_json(const PolicyDiff& d) {
  std::string out = diff_json_head(d);
  for (std::size_t i = 0; i < d.records.size(); ++i) {
    out += record_diff_to_json(d.records[i], d.static_changes);
    out += i + 1 < d.records.size() ? ",\n" : "\n";
  }
  return out + diff_json_tail(d);
}

// ---- text ---------------------------------------------------------------------------------------

std::string diff_to_text(const PolicyDiff& d, const DiffTextOptions& options) {
  auto paint = [&](const std::string& s, const char* code) {
    return options.color ? std::string("\x1b[") + code + "m" + s + "\x1b[0m" : s;
  };
  std::ostringstream out;
  out << paint("policy diff", "1") << ": " << d.old_file << " → " << d.new_file << "\n";
  auto list_errors = [&](const char* which, const Diagnostics& errors) {
    if (errors.empty()) return;
    out << "\n" << paint(std::string(which) + " has " + std::to_string(errors.size()) + " error(s):", "1;31") << "\n";
    for (const auto& e : errors) {
      out << "  " << paint("error[" + std::string(e.name()) + "]", "31") << " " << e.message;
      if (e.source) out << "  (" << e.source->file << ":" << e.source->line << ":" << e.source->column << ")";
      out << "\n";
    }
  };
  if (!d.old_readable) out << "\nOLD could not be read as a policy.\n";
  if (!d.new_readable) out << "\nNEW could not be read as a policy.\n";
  list_errors("OLD", d.old_errors);
  list_errors("NEW", d.new_errors);
  if (d.old_readable && d.new_readable) {
    out << "\n" << paint("Static changes", "1") << " (" << d.static_changes.size() << "):\n";
    if (d.static_changes.empty()) out << "  none: the two policies are the same, field by field\n";
    for (const auto& c : d.static_changes) {
      out << "  " << c.field << ": " << change_text(c) << "\n      " << (c.old_source ? where(c.old_source) : "-")
          << " → " << (c.new_source ? where(c.new_source) : "-") << "\n";
    }
  }
  if (d.replayed) {
    out << "\n" << paint("Replay", "1") << " of " << d.summary.total() << " record(s) from " << d.requests
        << " under both policies:\n";
    for (std::size_t i = 0; i < k_diff_classes; ++i) {
      std::string line = std::string(k_class_titles[i]);
      line.resize(20, ' ');
      std::string n = std::to_string(d.summary.counts[i]);
      if (n.size() < 8) n.insert(0, 8 - n.size(), ' ');
      std::string row = "  " + line + n;
      out << (is_bad_class(d, i) ? paint(row, "31") : row) << "\n";
    }
    if (!d.summary.newly_rejected_by_code.empty()) {
      out << "\n" << paint("Newly rejected, by code", "1") << ":\n";
      for (const auto& g : d.summary.newly_rejected_by_code) {
        out << "  " << paint(g.key, "31") << ": " << g.count << " record(s)";
        std::string causes = causes_text(d.static_changes, g.caused_by);
        out << (causes.empty() ? ", caused by no static change (runners, org or a rule outside the policy)" : ", caused by " + causes)
            << "\n";
        for (const auto& e : g.examples) {
          if (const Diagnostic* err = example_error(e, g.key)) {
            out << "    " << record_name(e) << ": " << err->input << ":" << (err->path.empty() ? "/" : err->path) << ": "
                << err->message << "\n";
          }
        }
        if (g.count > g.examples.size()) out << "    … and " << g.count - g.examples.size() << " more\n";
      }
    }
    if (!d.summary.resolution_changed_by_pointer.empty()) {
      out << "\n" << paint("Resolved differently, by value", "1") << ":\n";
      for (const auto& g : d.summary.resolution_changed_by_pointer) {
        out << "  " << g.key << ": " << g.count << " record(s)\n";
        for (const auto& e : g.examples) {
          if (const ValueChange* c = example_change(e, g.key)) {
            out << "    " << record_name(e) << ": " << short_value(c->old_value) << " → " << short_value(c->new_value) << "\n";
          }
        }
        if (g.count > g.examples.size()) out << "    … and " << g.count - g.examples.size() << " more\n";
      }
    }
    auto examples = [&](DiffClass c, const char* title, auto describe) {
      const auto& ex = d.summary.class_examples[static_cast<std::size_t>(c)];
      if (ex.empty()) return;
      out << "\n" << paint(title, "1") << ":\n";
      for (const auto& e : ex) out << "    " << record_name(e) << ": " << describe(e) << "\n";
      std::size_t n = count_of(d, c);
      if (n > ex.size()) out << "    … and " << n - ex.size() << " more\n";
    };
    examples(DiffClass::rejection_changed, "Rejected by both, for other reasons",
             [](const RecordDiff& e) { return codes_text(e.old_codes) + " → " + new_codes_text(e); });
    examples(DiffClass::newly_accepted, "Newly accepted",
             [](const RecordDiff& e) { return "was rejected with " + codes_text(e.old_codes); });
    examples(DiffClass::unreadable, "Unreadable", [](const RecordDiff& e) {
      std::string s = first_error_text(e);
      if (!e.errors.empty() && e.errors.front().source) {
        s += "  (" + e.errors.front().source->file + ":" + std::to_string(e.errors.front().source->line) + ":" +
             std::to_string(e.errors.front().source->column) + ")";
      }
      return s;
    });
  }
  if (!d.error.empty()) out << "\n" << paint("error", "1;31") << ": " << d.error << "\n";
  out << "\n";
  std::size_t newly = count_of(d, DiffClass::newly_rejected);
  if (d.ok()) {
    out << paint("ok", "1;32") << ": NEW is valid" << (d.replayed ? " and rejects no request that OLD accepts" : "") << "\n";
  } else {
    std::string why;
    if (!d.old_readable || !d.new_readable) why = "a policy could not be read";
    if (!d.new_errors.empty()) why += std::string(why.empty() ? "" : "; ") + "NEW is invalid";
    if (newly) why += std::string(why.empty() ? "" : "; ") + "NEW rejects " + std::to_string(newly) + " request(s) that OLD accepts";
    if (!d.error.empty()) why += std::string(why.empty() ? "" : "; ") + "the requests could not be read to the end";
    out << paint("not ok", "1;31") << ": " << why << "\n";
  }
  return out.str();
}

// ---- Markdown -----------------------------------------------------------------------------------

std::string diff_to_markdown(const PolicyDiff& d) {
  std::ostringstream out;
  std::size_t newly = count_of(d, DiffClass::newly_rejected);
  out << "### sandgate policy diff: " << md_code(d.old_file) << " → " << md_code(d.new_file) << "\n\n";
  if (d.ok()) {
    out << ":white_check_mark: **NEW is valid**" << (d.replayed ? " and rejects none of the " + std::to_string(d.summary.total()) + " replayed requests that OLD accepts" : "") << ".\n\n";
  } else {
    out << ":x: ";
    if (!d.old_readable) out << "**OLD could not be read as a policy.** ";
    if (!d.new_readable) out << "**NEW could not be read as a policy.** ";
    if (!d.new_errors.empty()) out << "**NEW is invalid** (" << d.new_errors.size() << " error(s)). ";
    if (newly) {
      out << "**NEW would reject " << newly << " of " << d.summary.total() << " replayed requests that OLD accepts.** ";
    }
    if (!d.error.empty()) out << "**The requests could not be read to the end:** " << md_escape(d.error);
    out << "\n\n";
  }
  auto errors_table = [&](const char* which, const Diagnostics& errors) {
    if (errors.empty()) return;
    out << "#### Errors in " << which << "\n\n| code | where | message |\n|---|---|---|\n";
    for (const auto& e : errors) {
      out << "| " << md_code(std::string(e.name())) << " | "
          << (e.source ? md_code(e.source->file + ":" + std::to_string(e.source->line)) : md_code(e.path)) << " | "
          << md_escape(e.message) << " |\n";
    }
    out << "\n";
  };
  errors_table("OLD", d.old_errors);
  errors_table("NEW", d.new_errors);
  if (d.old_readable && d.new_readable) {
    out << "#### Static changes (" << d.static_changes.size() << ")\n\n";
    if (d.static_changes.empty()) {
      out << "None: the two policies are the same, field by field.\n\n";
    } else {
      out << "| field | change | old | new |\n|---|---|---|---|\n";
      for (const auto& c : d.static_changes) {
        std::string change;
        switch (c.kind) {
          case StaticChange::Kind::added: change = "added " + md_code(short_value(c.new_value, 80)); break;
          case StaticChange::Kind::removed: change = "removed " + md_code(short_value(c.old_value, 80)); break;
          case StaticChange::Kind::reordered: change = "reordered"; break;
          case StaticChange::Kind::changed:
            change = md_code(short_value(c.old_value, 80)) + " → " + md_code(short_value(c.new_value, 80));
            break;
        }
        out << "| " << md_code(c.field) << " | " << change << " | " << (c.old_source ? md_code(where(c.old_source)) : "")
            << " | " << (c.new_source ? md_code(where(c.new_source)) : "") << " |\n";
      }
      out << "\n";
    }
  }
  if (d.replayed) {
    out << "#### Replay of " << d.summary.total() << " request(s) from " << md_code(d.requests) << "\n\n";
    out << "| class | requests |\n|---|---:|\n";
    for (std::size_t i = 0; i < k_diff_classes; ++i) {
      bool bad = is_bad_class(d, i);
      out << "| " << k_class_titles[i] << " | " << (bad ? "**" : "") << d.summary.counts[i] << (bad ? "**" : "") << " |\n";
    }
    out << "\n";
    if (!d.summary.newly_rejected_by_code.empty()) {
      out << "#### Newly rejected, by code\n\n| code | requests | caused by |\n|---|---:|---|\n";
      for (const auto& g : d.summary.newly_rejected_by_code) {
        std::string causes;
        for (std::size_t i : g.caused_by) {
          if (i >= d.static_changes.size()) continue;
          const auto& c = d.static_changes[i];
          causes += (causes.empty() ? "" : "<br>") + md_code(c.field) + (c.list_item ? " " + md_escape(change_text(c)) : "");
        }
        out << "| " << md_code(g.key) << " | " << g.count << " | " << (causes.empty() ? "—" : causes) << " |\n";
      }
      out << "\n<details><summary>Examples</summary>\n\n";
      for (const auto& g : d.summary.newly_rejected_by_code) {
        out << "**" << md_code(g.key) << "**\n\n";
        for (const auto& e : g.examples) {
          if (const Diagnostic* err = example_error(e, g.key)) {
            out << "- " << md_escape(record_name(e)) << ": " << md_code(err->path.empty() ? "/" : err->path) << " "
                << md_escape(err->message) << "\n";
          }
        }
        if (g.count > g.examples.size()) out << "- … and " << g.count - g.examples.size() << " more\n";
        out << "\n";
      }
      out << "</details>\n\n";
    }
    if (!d.summary.resolution_changed_by_pointer.empty()) {
      out << "#### Resolved differently, by value\n\n| value | requests | example |\n|---|---:|---|\n";
      for (const auto& g : d.summary.resolution_changed_by_pointer) {
        std::string example;
        if (const ValueChange* c = g.examples.empty() ? nullptr : example_change(g.examples.front(), g.key)) {
          example = md_code(short_value(c->old_value, 40)) + " → " + md_code(short_value(c->new_value, 40));
        }
        out << "| " << md_code(g.key) << " | " << g.count << " | " << example << " |\n";
      }
      out << "\n";
    }
    const auto& unreadable = d.summary.class_examples[static_cast<std::size_t>(DiffClass::unreadable)];
    if (!unreadable.empty()) {
      out << "<details><summary>Unreadable records (" << count_of(d, DiffClass::unreadable) << ")</summary>\n\n";
      for (const auto& e : unreadable) out << "- " << md_escape(record_name(e)) << ": " << md_escape(first_error_text(e)) << "\n";
      out << "\n</details>\n\n";
    }
  }
  out << "<sub>sandgate " << SANDGATE_VERSION << " · `sandgate policy diff`</sub>\n";
  return out.str();
}

}  // namespace sandgate

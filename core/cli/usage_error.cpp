#include "usage_error.h"

#include <algorithm>
#include <cctype>
#include <limits>

#include "util/text.h"

namespace sandgate::cli {
namespace {

// The command parsing had reached: the deepest subcommand named on the line.
const CLI::App* reached(const CLI::App& app) {
  const CLI::App* at = &app;
  for (std::vector<CLI::App*> subs = at->get_subcommands(); !subs.empty(); subs = at->get_subcommands()) {
    at = subs.back();
  }
  return at;
}

// "sandgate policy validate"
std::string command_path(const CLI::App* app) {
  std::string out;
  for (; app; app = app->get_parent()) out = out.empty() ? app->get_name() : app->get_name() + " " + out;
  return out;
}

// "policy validate": a command as typed after "sandgate".
std::string command_words(const CLI::App* app) {
  std::string path = command_path(app);
  std::size_t space = path.find(' ');
  return space == std::string::npos ? std::string() : path.substr(space + 1);
}

bool wants_subcommand(const CLI::App* app) { return app->get_require_subcommand_min() > 0; }

std::string help_line(const CLI::App* at) {
  if (!at->get_parent()) return "Run `sandgate --help` for the commands.";
  return "Run `" + command_path(at) + " --help` for its " + (wants_subcommand(at) ? "commands." : "options.");
}

std::vector<const CLI::App*> subcommands_of(const CLI::App* app) {
  std::vector<const CLI::App*> out;
  for (const CLI::App* s : app->get_subcommands([](const CLI::App*) { return true; })) out.push_back(s);
  return out;
}

// Every command that does something (a leaf), as typed after "sandgate": "check", "policy validate".
void leaf_commands(const CLI::App* app, std::vector<const CLI::App*>& out) {
  for (const CLI::App* s : subcommands_of(app)) {
    if (wants_subcommand(s)) {
      leaf_commands(s, out);
    } else {
      out.push_back(s);
    }
  }
}

const CLI::App* root_of(const CLI::App* app) {
  while (app->get_parent()) app = app->get_parent();
  return app;
}

// How a message names an option: "--policy", or a positional's name in capitals ("SANDBOX").
std::string shown_name(const CLI::Option* opt) {
  std::string name = opt->get_name();
  if (!opt->get_positional()) return name;
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::toupper(c); });
  return name;
}

// An option's help text as the end of a sentence: "The runner policy" → "the runner policy".
std::string described(const CLI::Option* opt) {
  std::string d = opt->get_description();
  if (d.size() > 1 && std::isupper(static_cast<unsigned char>(d[0])) &&
      (std::islower(static_cast<unsigned char>(d[1])) || d[1] == ' ')) {
    d[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(d[0])));
  }
  return d;
}

// The values one_of accepts, read back from the type name CLI11 shows ("TEXT:{text,json,sarif}").
std::vector<std::string> accepted_values(const CLI::Option* opt) {
  std::string type = opt->get_type_name();
  std::size_t open = type.find('{'), close = type.rfind('}');
  std::vector<std::string> out;
  if (open == std::string::npos || close == std::string::npos || close < open) return out;
  std::string_view list = std::string_view(type).substr(open + 1, close - open - 1);
  while (!list.empty()) {
    std::size_t comma = list.find(',');
    out.emplace_back(list.substr(0, comma));
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return out;
}

std::vector<std::string> long_names(const CLI::App* app) {
  std::vector<std::string> out;
  for (const CLI::Option* opt : app->get_options()) {
    for (const std::string& n : opt->get_lnames()) out.push_back(n);
  }
  if (!app->get_parent()) out.push_back("version");  // --version is the top level's alone
  return out;
}

// The option `word` (dashes and any "=value" removed) most likely meant among `names`: the same but
// for case, a close spelling, or the only one it begins.
std::string option_meant(std::string_view word, const std::vector<std::string>& names) {
  if (std::string near = nearest_allowed(word, names); !near.empty()) return near;
  if (word.size() < 3) return {};
  std::string only;
  for (const std::string& n : names) {
    if (n.size() > word.size() && ascii_lower(n.substr(0, word.size())) == ascii_lower(word)) {
      if (!only.empty()) return {};
      only = n;
    }
  }
  return only;
}

// "-p": the long options that begin with the letter ("--policy or --placement").
std::vector<std::string> options_starting_with(char letter, const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const std::string& n : names) {
    if (!n.empty() && std::tolower(static_cast<unsigned char>(n[0])) == std::tolower(static_cast<unsigned char>(letter))) {
      out.push_back("--" + n);
    }
  }
  return out;
}

// Other commands that take the option `--word` (`--requests` on `explain` is `check`'s).
std::vector<std::string> commands_taking(const CLI::App* at, std::string_view word) {
  std::vector<const CLI::App*> leaves;
  leaf_commands(root_of(at), leaves);
  std::vector<std::string> out;
  for (const CLI::App* c : leaves) {
    if (c == at) continue;
    std::vector<std::string> names = long_names(c);
    if (std::find(names.begin(), names.end(), word) != names.end()) out.push_back("`" + command_path(c) + "`");
  }
  return out;
}

std::string unknown_option(const CLI::App* at, std::string_view token) {
  const std::string who = command_path(at);
  std::string_view word = token;
  if (std::size_t eq = word.find('='); eq != std::string_view::npos) word = word.substr(0, eq);
  const std::string seen = std::string(word);
  word.remove_prefix(word.compare(0, 2, "--") == 0 ? 2 : 1);
  const std::vector<std::string> names = long_names(at);
  std::string out = who + ": unknown option " + shown_text(seen);
  if (token.size() == 2 && token[0] == '-' && token[1] != '-') {  // -p: sandgate has no short options
    std::vector<std::string> meant = options_starting_with(token[1], names);
    out += meant.empty() ? "; sandgate's options are spelled out (--policy)"
                         : "; sandgate's options are spelled out: " + join_or(meant) + "?";
    return out;
  }
  if (std::string meant = option_meant(word, names); !meant.empty()) return out + "; did you mean --" + meant + "?";
  if (std::vector<std::string> others = commands_taking(at, word); !others.empty()) {
    return out + " (it is an option of " + join_or(others) + ")";
  }
  return out;
}

// An unknown option may have left its value to a positional: it is what the line is told about.
std::vector<std::string> unknown_options(const CLI::App& app, const CLI::App* at) {
  std::vector<std::string> lines;
  for (const std::string& token : app.remaining(true)) {
    if (token.size() > 1 && token[0] == '-') lines.push_back(unknown_option(at, token));
  }
  return lines;
}

std::vector<std::string> extras(const CLI::App& app, const CLI::App* at) {
  const std::string who = command_path(at);
  std::vector<std::string> lines;
  std::vector<const CLI::Option*> positionals =
      at->get_options([](const CLI::Option* o) { return o->get_positional(); });
  for (const std::string& token : app.remaining(true)) {
    if (positionals.empty()) {
      lines.push_back(who + " takes no " + (token == "-" ? "input" : "file or value") + "; " + shown_text(token) +
                      " was given");
    } else {
      std::string names;
      for (const CLI::Option* p : positionals) names += (names.empty() ? "" : " ") + shown_name(p);
      lines.push_back(who + ": " + shown_text(token) + " is one value too many (it takes " + names + ")");
    }
  }
  return lines;
}

bool looks_like_file(std::string_view word) {
  auto ends_with = [&](std::string_view s) {
    return word.size() > s.size() && ascii_lower(word.substr(word.size() - s.size())) == s;
  };
  return word == "-" || word.find('/') != std::string_view::npos || ends_with(".yaml") || ends_with(".yml") ||
         ends_with(".json") || ends_with(".jsonl");
}

// Words newcomers type for a command sandgate spells otherwise.
std::string command_for_word(std::string_view word) {
  static const std::pair<std::string_view, std::string_view> k_words[] = {
      {"lint", "policy validate"}, {"resolve", "explain"}, {"show", "explain"},
      {"help", "--help"},          {"version", "--version"},
  };
  std::string lower = ascii_lower(word);
  for (const auto& [w, command] : k_words) {
    if (lower == w) return std::string(command);
  }
  return {};
}

// What a word where a command goes most likely meant, as typed after "sandgate".
std::string command_meant(const CLI::App* at, std::string_view word) {
  std::vector<std::string> here;
  for (const CLI::App* s : subcommands_of(at)) here.push_back(s->get_name());
  if (std::string near = nearest_allowed(word, here); !near.empty()) {
    std::string words = command_words(at);
    return words.empty() ? near : words + " " + near;
  }
  // A command of another level: "validate" is "policy validate", `policy check` is "check".
  std::vector<const CLI::App*> all;
  for (const CLI::App* s : subcommands_of(root_of(at))) {
    all.push_back(s);
    for (const CLI::App* t : subcommands_of(s)) all.push_back(t);
  }
  std::vector<std::string> names;
  for (const CLI::App* c : all) names.push_back(c->get_name());
  if (std::string near = nearest_allowed(word, names); !near.empty()) {
    for (const CLI::App* c : all) {
      if (c->get_name() == near) return command_words(c);
    }
  }
  return command_for_word(word);
}

std::string missing_command(const CLI::App& app, const CLI::App* at) {
  const std::string who = command_path(at);
  std::vector<std::string> names;
  for (const CLI::App* s : subcommands_of(at)) {
    std::string words = command_words(s);
    names.push_back(at->get_parent() ? s->get_name() : words);
    if (!at->get_parent() && wants_subcommand(s)) {  // "policy" is "policy validate" and "policy diff"
      names.pop_back();
      for (const CLI::App* t : subcommands_of(s)) names.push_back(command_words(t));
    }
  }
  std::string word;
  for (const std::string& token : app.remaining(true)) {
    if (!token.empty() && token[0] != '-') {
      word = token;
      break;
    }
  }
  if (word.empty()) return who + ": name a command: " + join_or(names);
  if (looks_like_file(word)) {
    return who + ": " + shown_text(word) + " is a file, not a command; to validate a policy: `sandgate policy validate " +
           word + "`; to check a sandbox: `sandgate check " + word + " --policy POLICY`";
  }
  std::string out = who + ": " + shown_text(word) + " is not a command";
  if (std::string meant = command_meant(at, word); !meant.empty()) {
    return out + "; did you mean `sandgate " + meant + "`?";
  }
  return out + "; the commands: " + join_and(names);
}

std::string required(const CLI::App& app, const CLI::App* at, const std::string& what) {
  if (what.rfind("A subcommand", 0) == 0) return missing_command(app, at);
  const std::string suffix = " is required";
  if (what.size() <= suffix.size() || what.compare(what.size() - suffix.size(), suffix.size(), suffix) != 0) return {};
  const CLI::Option* opt = at->get_option_no_throw(what.substr(0, what.size() - suffix.size()));
  if (!opt) return {};
  return command_path(at) + ": " + shown_name(opt) + " is missing: " + described(opt);
}

// CLI11 writes "NAME: rest"; the option it names, or null.
const CLI::Option* named_option(const CLI::App* at, const std::string& what, std::string& rest) {
  std::size_t colon = what.find(": ");
  if (colon == std::string::npos) return nullptr;
  rest = what.substr(colon + 2);
  return at->get_option_no_throw(what.substr(0, colon));
}

std::string mismatch(const CLI::App* at, const std::string& what) {
  std::string rest;
  const CLI::Option* opt = named_option(at, what, rest);
  if (!opt) return {};
  const std::string who = command_path(at) + ": " + shown_name(opt);
  if (rest.size() > 8 && rest.compare(rest.size() - 8, 8, " missing") == 0) {  // "1 required TEXT missing"
    std::vector<std::string> accepted = accepted_values(opt);
    return who + " needs a value: " + (accepted.empty() ? described(opt) : join_or(accepted));
  }
  // "At Most 1 required but received 2"
  const std::string received = " but received ";
  if (std::size_t at_most = rest.find("At Most "), but = rest.find(received);
      at_most == 0 && but != std::string::npos) {
    std::string most = rest.substr(8, rest.find(' ', 8) - 8);
    std::string got = rest.substr(but + received.size());
    std::string out = who + " takes " + (most == "1" ? "one value" : most + " values") + ", and " + got + " were given";
    if (command_path(at) == "sandgate explain") out += " (`sandgate check` takes several sandboxes)";
    return out;
  }
  return {};
}

std::string validation(const CLI::App* at, const std::string& what) {
  std::string rest;
  const CLI::Option* opt = named_option(at, what, rest);
  if (!opt) return {};
  return command_path(at) + ": " + shown_name(opt) + " " + rest;
}

// The error's own words, when it says more than CLI11's message.
std::vector<std::string> explained(const CLI::App& app, const CLI::App* at, const CLI::ParseError& e) {
  const std::string what = e.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) return extras(app, at);
  if (dynamic_cast<const CLI::RequiredError*>(&e)) return {required(app, at, what)};
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e)) return {mismatch(at, what)};
  if (dynamic_cast<const CLI::ValidationError*>(&e)) return {validation(at, what)};
  return {};
}

}  // namespace

std::string usage_error_message(const CLI::App& app, const CLI::ParseError& e) {
  const CLI::App* at = reached(app);
  // Without its command, the options on a line mean nothing yet: the command is what is wrong.
  std::vector<std::string> lines;
  if (wants_subcommand(at)) {
    lines.push_back(missing_command(app, at));
  } else {
    lines = unknown_options(app, at);
    if (lines.empty()) lines = explained(app, at, e);
  }
  lines.erase(std::remove(lines.begin(), lines.end(), std::string()), lines.end());
  if (lines.empty()) lines.push_back(command_path(at) + ": " + e.what());
  lines.push_back(help_line(at));
  std::string out;
  for (const std::string& l : lines) out += (out.empty() ? "" : "\n") + l;
  return out;
}

CLI::Validator one_of(std::vector<std::string> accepted) {
  std::string desc = "{";
  for (const std::string& a : accepted) desc += (desc.size() > 1 ? "," : "") + a;
  desc += "}";
  return CLI::Validator(
      [accepted](std::string& value) -> std::string {
        if (std::find(accepted.begin(), accepted.end(), value) != accepted.end()) return {};
        std::string out = "takes " + join_or(accepted) + ", not " + shown_text(value);
        if (std::string near = nearest_allowed(value, accepted); !near.empty()) out += "; did you mean " + near + "?";
        return out;
      },
      desc);
}

CLI::Validator whole_number(unsigned long long lowest, unsigned long long highest) {
  std::string range = highest == std::numeric_limits<unsigned long long>::max()
                          ? "a whole number, " + std::to_string(lowest) + " or more"
                          : "a whole number from " + std::to_string(lowest) + " to " + std::to_string(highest);
  return CLI::Validator(
      [lowest, highest, range](std::string& value) -> std::string {
        bool digits = !value.empty() && value.size() <= 20 &&
                      std::all_of(value.begin(), value.end(), [](unsigned char c) { return c >= '0' && c <= '9'; });
        if (digits) {
          try {
            unsigned long long n = std::stoull(value);
            if (n >= lowest && n <= highest) return {};
          } catch (const std::out_of_range&) {
          }
        }
        return "takes " + range + ", not " + shown_text(value);
      },
      highest >= static_cast<unsigned long long>(std::numeric_limits<int>::max())
          ? std::to_string(lowest) + " or more"
          : std::to_string(lowest) + " to " + std::to_string(highest));
}

}  // namespace sandgate::cli

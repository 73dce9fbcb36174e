// sandgate quantity VALUE… — how sandgate (and the server) reads a quantity.
#include <iostream>

#include "cli.h"
#include "sandgate/quantity.h"
#include "util/json_writers.h"

namespace sandgate::cli {

Runner add_quantity_command(CLI::App& app, GlobalOptions& g) {
  auto* cmd = app.add_subcommand("quantity", "Parse quantities exactly and show their decimal and canonical forms");
  struct Args {
    std::vector<std::string> values;
    std::string grammar = "sdk";
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("values", args->values, "Quantities, e.g. 500m 1.5Gi 2e3")->required();
  cmd->add_option("--grammar", args->grammar, "sdk (sandbox requests) or kubernetes (policies)")
      ->check(one_of({"sdk", "kubernetes"}))
      ->capture_default_str();
  cmd->add_option("--format", g.format, "Output format")->check(one_of({"text", "json"}));
  return [cmd, args, &g]() -> int {
    if (!cmd->parsed()) return -1;
    QuantityGrammar grammar = args->grammar == "kubernetes" ? QuantityGrammar::kubernetes : QuantityGrammar::sdk;
    bool all_ok = true;
    rapidjson::StringBuffer buf;
    PrettyJsonWriter<rapidjson::StringBuffer> w(buf);
    w.SetIndent(' ', 2);
    w.StartArray();
    for (const auto& v : args->values) {
      QuantityError err;
      auto q = Quantity::parse(v, grammar, &err);
      all_ok = all_ok && q.has_value();
      if (g.format == "json") {
        w.StartObject();
        w.Key("input");
        w.String(v.c_str());
        w.Key("ok");
        w.Bool(q.has_value());
        if (q) {
          w.Key("decimal");
          w.String(q->decimal().c_str());
          w.Key("canonical");
          w.String(q->canonical().c_str());
          w.Key("milli");
          if (auto m = q->milli()) {
            w.Int64(*m);
          } else {
            w.Null();
          }
        } else {
          w.Key("error");
          w.String(err.message.c_str());
        }
        w.EndObject();
      } else if (q) {
        std::cout << v << ": decimal " << q->decimal() << ", canonical " << q->canonical();
        if (auto m = q->milli()) std::cout << ", milli " << *m;
        if (q->trimmed()) std::cout << " (white space trimmed; the server receives the raw text)";
        std::cout << "\n";
      } else {
        std::cout << v << ": error: " << err.message << "\n";
      }
    }
    w.EndArray();
    if (g.format == "json") std::cout << buf.GetString() << "\n";
    return all_ok ? k_ok : k_invalid;
  };
}

}  // namespace sandgate::cli

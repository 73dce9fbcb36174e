// Request streams (SPEC §10.1): one record per input record, in order, whatever a line holds;
// record-level diagnostics with true line:column; bounded memory for long lines; the ordered pool.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include "sandgate/engine.h"
#include "sandgate/request.h"
#include "sandgate/document.h"
#include "sandgate/node_tape.h"
#include "sandgate/stream.h"
#include "stream/ordered_pool.h"
#include "stream/result_view.h"

using namespace sandgate;

namespace {

std::vector<RequestRecord> read_all(std::string text, std::string name = "r.jsonl", Limits limits = {}) {
  StreamOptions o;
  o.limits = limits;
  auto reader = RequestReader::from_text(std::move(text), name, o);
  std::vector<RequestRecord> out;
  PendingRecord p;
  while (reader->next(p)) out.push_back(prepare_record(std::move(p), reader->name(), limits));
  EXPECT_EQ(reader->error(), "");
  return out;
}

std::string code_of(const RequestRecord& r) { return r.problem ? std::string(r.problem->name()) : std::string("-"); }

}  // namespace

TEST(JsonLines, one_record_per_non_blank_line_with_its_line_number) {
  auto rs = read_all("{\"container_image\":\"a\"}\n\n   \r\n{\"id\":\"x\",\"sandbox\":{}}\r\n{}");
  ASSERT_EQ(rs.size(), 3u);
  EXPECT_EQ(rs[0].line, 1);
  EXPECT_EQ(rs[1].line, 4);
  EXPECT_EQ(rs[2].line, 5) << "an unterminated last line is a record";
  EXPECT_EQ(rs[1].id, "x");
  for (std::size_t i = 0; i < rs.size(); ++i) {
    EXPECT_TRUE(rs[i].readable()) << i;
    EXPECT_EQ(rs[i].index, i + 1);
  }
}

TEST(JsonLines, broken_lines_are_records_with_one_diagnostic_each) {
  auto rs = read_all("{\"a\":\n[1,2]\n\"text\"\n{a: 1}\n{\"x\":\"\xC3\x28\"}\n{\"ok\":true}\n");
  ASSERT_EQ(rs.size(), 6u);
  EXPECT_EQ(code_of(rs[0]), "SG_SYNTAX");
  EXPECT_EQ(code_of(rs[1]), "SG_NOT_AN_OBJECT");
  EXPECT_EQ(code_of(rs[2]), "SG_NOT_AN_OBJECT");
  EXPECT_EQ(code_of(rs[3]), "SG_SYNTAX") << "flow-style YAML is not JSON: a JSON Lines record must be JSON";
  EXPECT_EQ(code_of(rs[4]), "SG_INVALID_UTF8");
  EXPECT_TRUE(rs[5].readable());
  for (std::size_t i = 0; i < 5; ++i) {
    ASSERT_TRUE(rs[i].problem->source) << i;
    EXPECT_EQ(rs[i].problem->source->line, static_cast<int>(i + 1)) << i;
    EXPECT_EQ(rs[i].problem->source->file, "r.jsonl");
    EXPECT_EQ(rs[i].problem->input, "requests");
  }
}

TEST(JsonLines, positions_inside_a_record_are_the_streams) {
  auto rs = read_all("\n\n{\"resources\": {\"cpu\": 2}}\n");
  ASSERT_EQ(rs.size(), 1u);
  const Node* cpu = rs[0].sandbox.root.find("resources")->find("cpu");
  EXPECT_EQ(cpu->mark.line, 3);
  EXPECT_EQ(cpu->mark.column, 23);
  stream::ResultView r = stream::view_of(Engine().check(rs[0].sandbox), stream::ViewDetail::summary);
  bool found = false;
  for (const auto& d : r.errors) {
    if (d.path == "/resources/cpu" && d.source) {
      EXPECT_EQ(d.source->file, "r.jsonl");
      EXPECT_EQ(d.source->line, 3);
      EXPECT_EQ(d.source->column, 23);
      found = true;
    }
  }
  EXPECT_TRUE(found) << "a number where a quantity string is wanted is reported at its place in the stream";
}

TEST(JsonLines, a_line_over_the_size_limit_is_counted_not_kept) {
  Limits limits;
  limits.max_bytes = 1000;
  std::string big = "{\"container_image\":\"" + std::string(5000, 'a') + "\"}";
  std::string exact = "{\"tags\":[\"" + std::string(1000 - 13, 'b') + "\"]}";
  ASSERT_EQ(exact.size(), 1000u);
  auto rs = read_all(big + "\n" + exact + "\n" + big, "r.jsonl", limits);
  ASSERT_EQ(rs.size(), 3u);
  EXPECT_EQ(code_of(rs[0]), "SG_DOC_TOO_LARGE");
  EXPECT_NE(rs[0].problem->message.find("(" + std::to_string(big.size()) + " bytes)"), std::string::npos)
      << rs[0].problem->message;
  EXPECT_TRUE(rs[1].readable()) << "exactly the limit is allowed: " << code_of(rs[1]);
  EXPECT_EQ(code_of(rs[2]), "SG_DOC_TOO_LARGE");
  EXPECT_EQ(rs[2].line, 3);
}

TEST(JsonLines, reader_never_holds_more_than_the_limit_of_one_line) {
  Limits limits;
  limits.max_bytes = 4096;
  StreamOptions o;
  o.limits = limits;
  auto reader = RequestReader::from_text(std::string(3 << 20, '\0') + "\n{}\n", "zeros", o);
  PendingRecord p;
  ASSERT_TRUE(reader->next(p));
  EXPECT_LE(p.text.capacity(), 2 * limits.max_bytes + 64) << "the 3 MiB line must not be kept";
  ASSERT_TRUE(p.problem);
  EXPECT_EQ(p.problem->code, Code::DOC_TOO_LARGE);
  ASSERT_TRUE(reader->next(p));
  EXPECT_EQ(p.line, 2);
  EXPECT_FALSE(reader->next(p));
}

// The limit is named in the largest unit that writes it whole.
TEST(JsonLines, the_size_limit_is_named_in_its_own_unit) {
  const std::pair<std::size_t, const char*> cases[] = {{1u << 20, "1 MiB"}, {3u << 10, "3 KiB"}, {1000, "1000 bytes"}};
  for (const auto& [max_bytes, named] : cases) {
    Limits limits;
    limits.max_bytes = max_bytes;
    auto rs = read_all(std::string(max_bytes + 1, 'a'), "r.jsonl", limits);
    ASSERT_EQ(rs.size(), 1u);
    ASSERT_TRUE(rs[0].problem);
    EXPECT_EQ(rs[0].problem->message, "the record is larger than the limit of " + std::string(named) + " (" +
                                          std::to_string(max_bytes + 1) + " bytes)");
  }
}

TEST(JsonLines, an_empty_stream_has_no_records) {
  EXPECT_TRUE(read_all("").empty());
  EXPECT_TRUE(read_all("\n\n  \n").empty());
}

TEST(Records, wrapper_layers_and_their_diagnostics) {
  auto rs = read_all(
      "{\"id\":\"a\",\"sandbox\":{\"tags\":[\"x\"],\"tags\":[]},\"defaults\":{\"tags\":[\"d\"]},\"overrides\":null}\n"
      "{\"id\":7,\"sandbox\":{}}\n"
      "{\"sandbox\":{},\"extra\":1}\n"
      "{\"sandbox\":[]}\n"
      "{\"sandbox\":{},\"defaults\":\"x\"}\n");
  ASSERT_EQ(rs.size(), 5u);
  ASSERT_TRUE(rs[0].readable());
  EXPECT_EQ(rs[0].id, "a");
  ASSERT_TRUE(rs[0].defaults);
  EXPECT_EQ(rs[0].defaults->input, "defaults");
  EXPECT_FALSE(rs[0].overrides);
  ASSERT_EQ(rs[0].sandbox.diagnostics.size(), 1u) << "the duplicate key belongs to the sandbox layer";
  EXPECT_EQ(rs[0].sandbox.diagnostics[0].path, "/tags");
  EXPECT_EQ(rs[0].sandbox.diagnostics[0].input, "sandbox");
  EXPECT_EQ(code_of(rs[1]), "SG_TYPE_MISMATCH");
  EXPECT_EQ(rs[1].problem->path, "/id");
  EXPECT_EQ(code_of(rs[2]), "SG_UNKNOWN_KEY");
  EXPECT_EQ(rs[2].problem->path, "/extra");
  EXPECT_EQ(code_of(rs[3]), "SG_NOT_AN_OBJECT");
  EXPECT_EQ(rs[3].problem->path, "/sandbox");
  EXPECT_EQ(code_of(rs[4]), "SG_NOT_AN_OBJECT");
  EXPECT_EQ(rs[4].problem->path, "/defaults");
}

// A load diagnostic goes with the layer its path lies under, the prefix taken off; one about the
// record itself (its id written twice) makes the record unreadable, at its own path.
TEST(Records, load_diagnostics_go_with_their_layer) {
  auto rs = read_all(
      "{\"sandbox\":{},\"defaults\":{\"tags\":[],\"tags\":[]},\"overrides\":{\"tags\":[],\"tags\":[]}}\n"
      "{\"id\":\"a\",\"id\":\"b\",\"sandbox\":{}}\n"
      "{\"sandbox\":{},\"sandbox\":{}}\n");
  ASSERT_EQ(rs.size(), 3u);
  ASSERT_TRUE(rs[0].readable()) << code_of(rs[0]);
  ASSERT_TRUE(rs[0].defaults && rs[0].overrides);
  ASSERT_EQ(rs[0].defaults->diagnostics.size(), 1u);
  EXPECT_EQ(rs[0].defaults->diagnostics[0].path, "/tags");
  ASSERT_EQ(rs[0].overrides->diagnostics.size(), 1u);
  EXPECT_EQ(rs[0].overrides->diagnostics[0].path, "/tags");
  EXPECT_TRUE(rs[0].sandbox.diagnostics.empty());
  EXPECT_EQ(code_of(rs[1]), "SG_DUPLICATE_KEY");
  EXPECT_EQ(rs[1].problem->path, "/id");
  ASSERT_TRUE(rs[2].readable()) << code_of(rs[2]);
  ASSERT_EQ(rs[2].sandbox.diagnostics.size(), 1u) << "the second sandbox is the sandbox layer's own duplicate";
  EXPECT_EQ(rs[2].sandbox.diagnostics[0].code, Code::DUPLICATE_KEY);
  EXPECT_EQ(rs[2].sandbox.diagnostics[0].path, "");
}

TEST(JsonList, items_are_streamed_with_their_positions) {
  auto rs = read_all("[\n  {\"container_image\": \"a\"},\n  {\"id\": \"b\", \"sandbox\": {\"resources\": {\"cpu\": 1}}}, 3\n]\n",
                     "r.json");
  ASSERT_EQ(rs.size(), 3u);
  EXPECT_EQ(rs[0].line, 2);
  EXPECT_EQ(rs[1].line, 3);
  EXPECT_EQ(rs[1].id, "b");
  const Node* cpu = rs[1].sandbox.root.find("resources")->find("cpu");
  EXPECT_EQ(cpu->mark.line, 3);
  EXPECT_EQ(cpu->mark.column, 48);
  EXPECT_EQ(code_of(rs[2]), "SG_NOT_AN_OBJECT");
  EXPECT_EQ(rs[2].problem->source->column, 54);
}

TEST(JsonList, a_broken_list_ends_with_one_record_level_diagnostic) {
  auto rs = read_all("[{\"a\":\"x,]\"}, {\"b\": [1, {\"c\": \"}\"}]}", "r.json");
  ASSERT_EQ(rs.size(), 3u) << "two items, then the missing ]";
  EXPECT_TRUE(rs[0].readable());
  EXPECT_TRUE(rs[1].readable());
  EXPECT_EQ(code_of(rs[2]), "SG_SYNTAX");
  EXPECT_EQ(read_all("[]", "r.json").size(), 0u);
  auto trailing = read_all("[{}] {}", "r.json");
  ASSERT_EQ(trailing.size(), 2u);
  EXPECT_EQ(code_of(trailing[1]), "SG_SYNTAX");
}

// A trailing comma is a broken list: the item before it is a record, then one record-level
// syntax diagnostic at the ] that stands where an item should.
TEST(JsonList, a_trailing_comma_is_one_record_level_diagnostic) {
  auto rs = read_all("[{}, ]", "r.json");
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_TRUE(rs[0].readable());
  EXPECT_EQ(code_of(rs[1]), "SG_SYNTAX");
  ASSERT_TRUE(rs[1].problem->source);
  EXPECT_EQ(rs[1].problem->source->line, 1);
  EXPECT_EQ(rs[1].problem->source->column, 6);
  EXPECT_NE(rs[1].problem->message.find("after the last ,"), std::string::npos) << rs[1].problem->message;
}

// A UTF-8 byte order mark before the list is skipped, as detection skips it: the items are records.
TEST(JsonList, a_byte_order_mark_before_the_list_is_skipped) {
  auto rs = read_all("\xEF\xBB\xBF[{\"id\": \"a\", \"sandbox\": {}}]", "r.json");
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_TRUE(rs[0].readable());
  EXPECT_EQ(rs[0].id, "a");
}

// Columns count code points (docs/design.md), also where the list scanner places an item.
TEST(JsonList, an_item_column_counts_code_points) {
  auto rs = read_all("[{\"id\": \"\xC3\xA9\"}, 3]", "r.json");
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_EQ(code_of(rs[1]), "SG_NOT_AN_OBJECT");
  ASSERT_TRUE(rs[1].problem->source);
  EXPECT_EQ(rs[1].problem->source->column, 15);
}

// A null id is an unset id (null members are unset), not a wrong type.
TEST(Records, a_null_id_is_no_id) {
  auto rs = read_all("{\"id\": null, \"sandbox\": {}}\n");
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_TRUE(rs[0].readable()) << code_of(rs[0]);
  EXPECT_FALSE(rs[0].id.has_value());
}

TEST(YamlList, items_are_records) {
  auto rs = read_all("# requests\n- container_image: a\n- id: b\n  sandbox: {tags: [x]}\n- 3\n", "r.yaml");
  ASSERT_EQ(rs.size(), 3u);
  EXPECT_EQ(rs[0].line, 2);
  EXPECT_EQ(rs[1].id, "b");
  EXPECT_EQ(code_of(rs[2]), "SG_NOT_AN_OBJECT");
  EXPECT_EQ(rs[2].problem->source->line, 5);
  auto not_list = read_all("a: 1\n", "r.yaml");
  ASSERT_EQ(not_list.size(), 1u);
  EXPECT_EQ(code_of(not_list[0]), "SG_TYPE_MISMATCH");
  EXPECT_TRUE(read_all("", "r.yaml").empty());
}

// A diagnostic the YAML loader gives inside an item (a duplicate key) belongs to that item's record,
// at its path within the record: /container_image, not the list's /1/container_image.
TEST(YamlList, a_load_diagnostic_inside_an_item_is_that_records_at_its_own_path) {
  auto rs = read_all("- {tags: [x]}\n- container_image: a\n  container_image: b\n", "r.yaml");
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_TRUE(rs[0].sandbox.diagnostics.empty());
  ASSERT_EQ(rs[1].sandbox.diagnostics.size(), 1u);
  const Diagnostic& d = rs[1].sandbox.diagnostics[0];
  EXPECT_EQ(d.name(), "SG_DUPLICATE_KEY");
  EXPECT_EQ(d.path, "/container_image");
  ASSERT_TRUE(d.source.has_value());
  EXPECT_EQ(d.source->line, 3);
}

TEST(YamlList, text_in_memory_starting_like_a_block_list_is_one_whatever_its_label) {
  // Bytes a binding hands over have no file name to tell; they are read as standard input is.
  for (const char* text : {"- container_image: a\n- container_image: b\n", "---\n- container_image: a\n- {}\n",
                           "# two\n- container_image: a\n- {}\n"}) {
    auto rs = read_all(text, "<records>");
    ASSERT_EQ(rs.size(), 2u) << text;
    EXPECT_TRUE(rs[0].readable() && rs[1].readable()) << text;
  }
  auto lines = read_all("{\"container_image\": \"a\"}\n- not json\n", "<records>");
  ASSERT_EQ(lines.size(), 2u);  // JSON Lines: the second line is one bad record
  EXPECT_TRUE(lines[0].readable());
  EXPECT_EQ(code_of(lines[1]), "SG_SYNTAX");
}

TEST(YamlList, a_file_whose_name_does_not_say_json_is_sniffed_too) {
  // requests.txt holding a YAML list was read as JSON Lines: every item an SG_SYNTAX record.
  auto format_of = [](const std::string& name) {
    std::string path = testing::TempDir() + name;
    {
      std::ofstream f(path, std::ios::binary);
      f << "- container_image: a\n- {}\n";
    }
    std::string error;
    auto reader = RequestReader::open(path, {}, &error);
    EXPECT_TRUE(reader) << error;
    StreamFormat f = reader ? reader->format() : StreamFormat::auto_detect;
    std::remove(path.c_str());
    return f;
  };
  EXPECT_EQ(format_of("sandgate_requests.txt"), StreamFormat::yaml_list);
  EXPECT_EQ(format_of("sandgate_requests"), StreamFormat::yaml_list);
  // A name that says JSON keeps its word: one broken record, not a YAML list.
  EXPECT_EQ(format_of("sandgate_requests.jsonl"), StreamFormat::json_lines);
  EXPECT_EQ(format_of("sandgate_requests.ndjson"), StreamFormat::json_lines);
}

TEST(StreamOptions, a_name_given_for_a_path_opened_under_another_names_and_types_the_stream) {
  // A binding opens /dev/fd/N or its own pipe: the user's name is what diagnostics show, and its
  // extension decides the format as it would have.
  std::string path = testing::TempDir() + "sandgate_stream_named";
  {
    std::ofstream f(path, std::ios::binary);
    f << "- container_image: a\n- 3\n";
  }
  StreamOptions o;
  o.name = "requests.yaml";
  std::string error;
  auto reader = RequestReader::open(path, o, &error);
  ASSERT_TRUE(reader) << error;
  EXPECT_EQ(reader->name(), "requests.yaml");
  EXPECT_EQ(reader->format(), StreamFormat::yaml_list);
  PendingRecord a, b, none;
  EXPECT_TRUE(reader->next(a) && reader->next(b));
  EXPECT_FALSE(reader->next(none));
  std::string missing_error;
  o.name = "the user's name";
  EXPECT_FALSE(RequestReader::open(path + ".missing", o, &missing_error));
  EXPECT_EQ(missing_error.rfind("cannot read the user's name: ", 0), 0u) << missing_error;
  std::remove(path.c_str());
}

TEST(OrderedPool, delivers_in_input_order_whatever_finishes_first) {
  for (unsigned jobs : {1u, 2u, 4u}) {
    stream::PoolOptions o;
    o.jobs = jobs;
    o.batch_items = 3;
    int next = 0;
    std::vector<int> seen;
    bool done = stream::run_ordered<int, int>(
        o, [&](int& x) { return next < 200 ? (x = next++, true) : false; }, [](const int&) { return std::size_t{1}; },
        [](int&& x) {
          if (x % 7 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
          return x * 2;
        },
        [&](int&& y) {
          seen.push_back(y);
          return true;
        });
    EXPECT_TRUE(done);
    ASSERT_EQ(seen.size(), 200u) << jobs;
    for (int i = 0; i < 200; ++i) EXPECT_EQ(seen[static_cast<std::size_t>(i)], 2 * i) << jobs;
  }
}

TEST(OrderedPool, the_window_bounds_what_is_in_flight) {
  stream::PoolOptions o;
  o.jobs = 2;
  o.batch_items = 4;
  o.window_batches = 3;
  std::atomic<int> produced{0};
  int delivered = 0, worst = 0;
  stream::run_ordered<int, int>(
      o, [&](int& x) { return (x = produced++) < 1000; }, [](const int&) { return std::size_t{1}; },
      [](int&& x) { return x; },
      [&](int&&) {
        ++delivered;
        worst = std::max(worst, produced.load() - delivered);
        return true;
      });
  EXPECT_EQ(delivered, 1000);
  EXPECT_LE(worst, 3 * 4 + 1) << "never more than the window's batches read ahead of what was delivered";
}

TEST(OrderedPool, stops_when_delivery_fails) {
  stream::PoolOptions o;
  o.jobs = 2;
  int next = 0, delivered = 0;
  bool done = stream::run_ordered<int, int>(
      o, [&](int& x) { return next < 100000 ? (x = next++, true) : false; }, [](const int&) { return std::size_t{1}; },
      [](int&& x) { return x; }, [&](int&&) { return ++delivered < 10; });
  EXPECT_FALSE(done);
  EXPECT_EQ(delivered, 10);
  EXPECT_LT(next, 100000) << "reading stops too";
}

TEST(OrderedPool, a_session_hands_out_a_part_at_a_time_and_keeps_reading_ahead) {
  stream::PoolOptions o;
  o.jobs = 2;
  o.batch_items = 4;
  o.window_batches = 3;
  std::atomic<unsigned> bad_worker{0};
  stream::OrderedPool<int, int> pool(o, [&](int&& x, unsigned w) {
    if (w >= 2) bad_worker = 1;
    return x * 3;
  });
  int produced = 0;
  std::vector<int> seen;
  stream::OrderedPool<int, int>::Session session(pool);
  auto produce = [&](int& x) { return produced < 103 ? (x = produced++, true) : false; };
  auto weight = [](const int&) { return std::size_t{1}; };
  auto deliver = [&](int&& y) {
    seen.push_back(y);
    return true;
  };
  ASSERT_TRUE(session.step(produce, weight, deliver, 5));
  EXPECT_EQ(seen.size(), 5u);
  EXPECT_GT(produced, 5) << "the window is read ahead, for the workers to go on with";
  EXPECT_LE(produced, 5 + 3 * 4) << "but no further than the window";
  while (!session.finished()) {
    std::size_t before = seen.size();
    ASSERT_TRUE(session.step(produce, weight, deliver, 7));
    EXPECT_TRUE(seen.size() - before == 7 || session.finished());
  }
  ASSERT_EQ(seen.size(), 103u);
  for (int i = 0; i < 103; ++i) EXPECT_EQ(seen[static_cast<std::size_t>(i)], 3 * i);
  EXPECT_EQ(bad_worker.load(), 0u) << "worker indices are 0 and 1";
}

TEST(OrderedPool, a_run_that_stops_early_leaves_no_batch_behind) {
  // Slow work and a wide window: when delivery stops after the first output, batches are still
  // queued and others are being worked on. Those not taken must be dropped and the others waited
  // for, so nothing of the run is still working, or works later, once run() has returned.
  stream::PoolOptions o;
  o.jobs = 2;
  o.batch_items = 1;
  o.window_batches = 16;
  std::atomic<int> active{0}, worked{0};
  stream::OrderedPool<int, int> pool(o, [&](int&& x, unsigned) {
    ++active;
    if (x > 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ++worked;
    --active;
    return x;
  });
  int next = 0;
  EXPECT_FALSE(pool.run([&](int& x) { return next < 1000 ? (x = next++, true) : false; },
                        [](const int&) { return std::size_t{1}; }, [](int&&) { return false; }));
  EXPECT_EQ(active.load(), 0) << "the batches being worked on were waited for";
  const int at_return = worked.load();
  EXPECT_LT(at_return, 16) << "the window was still full of queued batches";
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(worked.load(), at_return) << "and those no worker had taken were dropped, not worked later";
}

TEST(OrderedPool, runs_again_after_an_early_stop_an_exception_and_an_abandoned_session) {
  stream::PoolOptions o;
  o.jobs = 2;
  o.batch_items = 3;
  stream::OrderedPool<int, int> pool(o, [](int&& x, unsigned) {
    if (x == -1) throw std::runtime_error("bad input");
    return x + 1;
  });
  auto weight = [](const int&) { return std::size_t{1}; };
  auto full_run = [&] {
    int next = 0;
    std::vector<int> seen;
    bool done = pool.run([&](int& x) { return next < 300 ? (x = next++, true) : false; }, weight, [&](int&& y) {
      seen.push_back(y);
      return true;
    });
    EXPECT_TRUE(done);
    EXPECT_EQ(seen.size(), 300u);
    for (int i = 0; i < static_cast<int>(seen.size()); ++i) EXPECT_EQ(seen[static_cast<std::size_t>(i)], i + 1);
  };
  int next = 0, delivered = 0;
  EXPECT_FALSE(pool.run([&](int& x) { return next < 1000 ? (x = next++, true) : false; }, weight,
                        [&](int&&) { return ++delivered < 10; }));
  full_run();
  next = 0;
  EXPECT_THROW(pool.run([&](int& x) { return next < 1000 ? (x = next++ == 50 ? -1 : next, true) : false; }, weight,
                        [](int&&) { return true; }),
               std::runtime_error);
  full_run();
  {
    next = 0;
    stream::OrderedPool<int, int>::Session abandoned(pool);
    EXPECT_TRUE(abandoned.step([&](int& x) { return next < 1000 ? (x = next++, true) : false; }, weight,
                               [](int&&) { return true; }, 4));
  }  // records in flight are dropped or waited for here
  full_run();
}

TEST(RecordChecker, each_result_comes_with_the_worker_whose_thread_made_it) {
  std::string text;
  for (int i = 0; i < 400; ++i) {
    text += "{\"resources\":{\"cpu\":\"" + std::to_string(i % 12 + 1) + "\",\"memory\":\"1Gi\"}}\n";
  }
  auto policy = Policy::parse("constraints:\n  resources: {max_cpu: \"8\"}\n", Format::yaml, "p.yaml").policy;
  Engine engine(policy);
  for (unsigned jobs : {1u, 2u}) {
    std::mutex mu;
    std::map<unsigned, std::set<std::thread::id>> threads;  // worker → the threads its chore ran on
    RecordChecker checker(engine, {}, jobs, "r.jsonl", Limits{}, [&](unsigned w) {
      std::lock_guard lock(mu);
      threads[w].insert(std::this_thread::get_id());
    });
    EXPECT_EQ(checker.jobs(), jobs);
    auto reader = RequestReader::from_text(text, "r.jsonl");
    std::vector<bool> oks;
    std::set<unsigned> workers;
    std::size_t calls = 0;
    for (;;) {
      ++calls;
      std::size_t n = checker.take([&](PendingRecord& p) { return reader->next(p); },
                                   [&](RequestRecord&&, std::unique_ptr<Result> r, unsigned w) {
                                     workers.insert(w);
                                     oks.push_back(r->ok());
                                     return true;
                                   },
                                   37);
      if (n < 37) break;
    }
    ASSERT_EQ(oks.size(), 400u) << jobs;
    EXPECT_EQ(calls, 400u / 37 + 1);
    for (int i = 0; i < 400; ++i) EXPECT_EQ(oks[static_cast<std::size_t>(i)], i % 12 + 1 <= 8) << i;
    for (unsigned w : workers) EXPECT_LT(w, jobs);
    std::set<std::thread::id> all;
    for (auto& [w, ids] : threads) {
      EXPECT_EQ(ids.size(), 1u) << "worker " << w << " is one thread";
      all.insert(ids.begin(), ids.end());
    }
    EXPECT_EQ(all.size(), threads.size()) << "and each worker a different one";
    if (jobs == 1) {
      EXPECT_EQ(*all.begin(), std::this_thread::get_id()) << "one job: the calling thread checks";
    } else {
      EXPECT_EQ(all.count(std::this_thread::get_id()), 0u);
    }
  }
}

TEST(Record, a_tape_answers_as_the_tree_it_was_written_from) {
  // A sandbox with an unknown key, and a record-level problem: from a tape and from the tree.
  const std::string sandbox = "{\"resources\":{\"cpu\":\"1\",\"memory\":\"1Gi\"},\"imagee\":\"x\",\"tags\":[\"a\"]}";
  auto strip = [](Node& n, auto& self) -> void {
    n.mark = Mark{};
    n.text = n.is_string() ? n.text : std::string();  // a binding's scalars carry no literal
    for (auto& i : n.items) self(i, self);
    for (auto& m : n.members) {
      m.key_mark = Mark{};
      self(m.value, self);
    }
  };
  auto write = [](const Node& n, NodeTapeWriter& w, auto& self) -> void {
    switch (n.kind) {
      case NodeKind::null: w.null(); break;
      case NodeKind::boolean: w.boolean(n.boolean); break;
      case NodeKind::integer: w.integer(n.integer); break;
      case NodeKind::number: w.number(n.number); break;
      case NodeKind::string: w.string(n.text); break;
      case NodeKind::array:
        w.array(static_cast<std::uint32_t>(n.items.size()));
        for (const auto& i : n.items) self(i, w, self);
        break;
      case NodeKind::object:
        w.object(static_cast<std::uint32_t>(n.members.size()));
        for (const auto& m : n.members) {
          w.key(m.key);
          self(m.value, w, self);
        }
        break;
    }
  };
  Node value = load_document(sandbox, Format::json, "x.json", "sandbox").root;
  strip(value, strip);
  PendingRecord p;
  p.index = p.line = 7;
  NodeTapeWriter writer(p.tape);
  write(value, writer, write);
  RequestRecord from_tape = prepare_record(std::move(p), "<records>");
  RequestRecord from_tree = record_from_node(value, 7, 7, "<records>");
  ASSERT_TRUE(from_tape.readable());
  EXPECT_TRUE(from_tape.sandbox.root == from_tree.sandbox.root);
  auto compile = [](Document d) {
    Request::OwnedLayers layers;
    layers.sandbox = std::move(d);
    return Request::compile(std::move(layers));
  };
  Engine engine(nullptr);
  auto a = engine.check(compile(std::move(from_tape.sandbox)));
  auto b = engine.check(compile(std::move(from_tree.sandbox)));
  ASSERT_EQ(a.diagnostics().size(), b.diagnostics().size());
  ASSERT_FALSE(a.diagnostics().empty());
  for (std::size_t i = 0; i < a.diagnostics().size(); ++i) {
    EXPECT_EQ(a.diagnostics()[i].code, b.diagnostics()[i].code);
    EXPECT_EQ(a.diagnostics()[i].path, b.diagnostics()[i].path);
    EXPECT_EQ(a.diagnostics()[i].message, b.diagnostics()[i].message);
    EXPECT_FALSE(a.diagnostics()[i].source.has_value()) << "a value has no positions";
  }
  PendingRecord q;
  q.index = q.line = 9;
  NodeTapeWriter list(q.tape);
  list.array(2);
  list.integer(1);
  list.integer(2);
  RequestRecord problem = prepare_record(std::move(q), "<records>");
  ASSERT_FALSE(problem.readable());
  EXPECT_EQ(problem.problem->code, Code::NOT_AN_OBJECT);
  ASSERT_TRUE(problem.problem->source.has_value()) << "placed at the record, as a value's record-level problem is";
  EXPECT_EQ(problem.problem->source->line, 9);
  EXPECT_EQ(problem.problem->source->column, 1);
}

TEST(NodeTape, every_kind_comes_back_exactly_and_a_cut_tape_never_reads_past_its_end) {
  std::string tape;
  NodeTapeWriter w(tape);
  w.object(7);
  w.key("null");
  w.null();
  w.key("flags");
  w.array(2);
  w.boolean(true);
  w.boolean(false);
  w.key("ints");
  w.array(3);
  w.integer(0);
  w.integer(std::numeric_limits<std::int64_t>::min());
  w.integer(std::numeric_limits<std::int64_t>::max());
  w.key("numbers");
  w.array(2);
  w.number(-0.0);
  w.number(1e308);
  w.key(std::string("nul\0key", 7));
  w.string(std::string("a\0b\xC3\xA9", 5));
  w.key("empty");
  w.object(0);
  w.key("");
  w.array(0);
  Node n = node_from_tape(tape);
  ASSERT_TRUE(n.is_object());
  ASSERT_EQ(n.members.size(), 7u);
  EXPECT_TRUE(n.members[0].value.is_null());
  EXPECT_TRUE(n.members[1].value.items[0].boolean);
  EXPECT_FALSE(n.members[1].value.items[1].boolean);
  EXPECT_EQ(n.members[2].value.items[1].integer, std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(n.members[2].value.items[2].integer, std::numeric_limits<std::int64_t>::max());
  EXPECT_TRUE(std::signbit(n.members[3].value.items[0].number));
  EXPECT_EQ(n.members[3].value.items[1].number, 1e308);
  EXPECT_EQ(n.members[4].key, std::string("nul\0key", 7));
  EXPECT_EQ(n.members[4].value.text, std::string("a\0b\xC3\xA9", 5));
  EXPECT_TRUE(n.members[5].value.is_object() && n.members[5].value.members.empty());
  EXPECT_TRUE(n.members[6].key.empty() && n.members[6].value.is_array());
  for (const auto& m : n.members) EXPECT_FALSE(m.value.mark.known());
  EXPECT_EQ(n.members[2].value.items[1].style, ScalarStyle::native);
  for (std::size_t cut = 0; cut < tape.size(); ++cut) {
    Node part = node_from_tape(std::string_view(tape).substr(0, cut));  // under ASan: no read past the end
    EXPECT_LE(part.members.size(), 7u) << cut;
  }
  std::string huge;
  NodeTapeWriter h(huge);
  h.array(0xFFFFFFFFu);  // a count no tape of ours can hold: read as empty, not reserved
  EXPECT_TRUE(node_from_tape(huge).items.empty());
  std::string deep;
  NodeTapeWriter d(deep);
  for (int i = 0; i < 200000; ++i) d.array(1);  // nested far past any limit: no recursion that deep
  d.null();
  Node top = node_from_tape(deep);
  int depth = 0;
  for (const Node* at = &top; at->is_array() && !at->items.empty(); at = &at->items[0]) ++depth;
  EXPECT_LE(depth, 65);
}

TEST(CheckRecords, results_in_input_order_with_unreadable_records_in_place) {
  std::string text;
  for (int i = 0; i < 300; ++i) {
    text += i % 50 == 7 ? "not json\n" : "{\"id\":\"r" + std::to_string(i) + "\",\"sandbox\":{\"resources\":{\"cpu\":\"" +
                                               std::to_string(i % 12 + 1) + "\",\"memory\":\"1Gi\"}}}\n";
  }
  auto policy = Policy::parse("constraints:\n  resources: {max_cpu: \"8\"}\n", Format::yaml, "p.yaml").policy;
  Engine engine(policy);
  for (unsigned jobs : {1u, 3u}) {
    auto reader = RequestReader::from_text(text, "r.jsonl");
    std::vector<std::pair<int, bool>> seen;
    bool done = check_records([&](PendingRecord& p) { return reader->next(p); }, reader->name(), reader->limits(), engine, {},
                              jobs, [&](RequestRecord&& rec, Result&& res) {
                                seen.emplace_back(rec.line, stream::view_of(std::move(res), stream::ViewDetail::summary).ok);
                                return true;
                              });
    EXPECT_TRUE(done);
    ASSERT_EQ(seen.size(), 300u) << jobs;
    for (int i = 0; i < 300; ++i) {
      EXPECT_EQ(seen[static_cast<std::size_t>(i)].first, i + 1) << jobs;
      bool ok = i % 50 != 7 && i % 12 + 1 <= 8;
      EXPECT_EQ(seen[static_cast<std::size_t>(i)].second, ok) << "record " << i + 1 << " on " << jobs << " jobs";
    }
  }
}

// view_of moves the errors out of a result it is done with (Result::take_errors): the same errors,
// in the same order, whether or not the diagnostics had been read before.
TEST(ResultView, takes_the_errors_a_reader_of_the_result_would_read) {
  auto policy = Policy::parse("constraints:\n  metadata:\n    denied_annotation_prefixes: [\"acme.io/\"]\n"
                              "  resources:\n    max_cpu: \"2\"\n",
                              Format::yaml, "p.yaml").policy;
  Engine engine(policy);
  Document sandbox = load_document("annotations: {acme.io/team: a, ok: b}\nresources: {cpu: \"4\", memory: 1Gi}\n"
                                   "tags: [x, x]\n",
                                   Format::yaml, "s.yaml", "sandbox");
  std::vector<Diagnostic> expected;
  const Result reference = engine.check(sandbox);
  for (const auto& d : reference.diagnostics()) {
    if (d.severity == Severity::error) expected.push_back(d);
  }
  ASSERT_GE(expected.size(), 2u) << "a request with several errors";
  auto summary = [](const std::vector<Diagnostic>& ds) {
    std::vector<std::string> out;
    for (const auto& d : ds) out.push_back(std::string(d.name()) + " " + d.path + " " + d.message);
    return out;
  };
  Result unread = engine.check(sandbox);
  EXPECT_EQ(summary(stream::view_of(std::move(unread), stream::ViewDetail::summary).errors), summary(expected));
  Result read = engine.check(sandbox);
  ASSERT_EQ(read.diagnostics().size(), engine.check(sandbox).diagnostics().size());
  EXPECT_EQ(summary(stream::view_of(std::move(read), stream::ViewDetail::resolution).errors), summary(expected));
}

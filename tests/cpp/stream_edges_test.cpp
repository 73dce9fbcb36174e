// The request reader at its edges (SPEC §10.1): a record exactly at the size limit, CRLF line
// endings, NUL bytes where the JSON list scanner decides, a YAML list that does not parse, and the
// source failing or being interrupted under the reader. stream_test.cpp covers the ordinary paths.
#include <gtest/gtest.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "sandgate/stream.h"

using namespace sandgate;

namespace {

struct Read {
  std::vector<RequestRecord> records;
  std::string error;
};

Read read_reader(RequestReader& reader, const Limits& limits = {}) {
  Read out;
  PendingRecord p;
  while (reader.next(p)) out.records.push_back(prepare_record(std::move(p), reader.name(), limits));
  out.error = reader.error();
  return out;
}

Read read_text(std::string text, const std::string& name, Limits limits = {}) {
  StreamOptions o;
  o.limits = limits;
  auto reader = RequestReader::from_text(std::move(text), name, o);
  return read_reader(*reader, limits);
}

std::string code_of(const RequestRecord& r) { return r.problem ? std::string(r.problem->name()) : std::string("-"); }

std::string message_of(const RequestRecord& r) { return r.problem ? r.problem->message : std::string(); }

// A record of exactly `bytes` bytes: {"container_image":"aaa…"}.
std::string record_of_size(std::size_t bytes) {
  const std::string head = "{\"container_image\":\"", tail = "\"}";
  return head + std::string(bytes - head.size() - tail.size(), 'a') + tail;
}

// Puts `fd` on standard input for the life of the object, since "-" is the one path whose file
// descriptor a test can choose (a pipe end, a socket).
class OnStdin {
 public:
  explicit OnStdin(int fd) : saved_(::dup(STDIN_FILENO)) { ::dup2(fd, STDIN_FILENO); }
  ~OnStdin() {
    ::dup2(saved_, STDIN_FILENO);
    ::close(saved_);
  }

 private:
  int saved_;
};

void write_all(int fd, const std::string& text) {
  ASSERT_EQ(::write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
}

}  // namespace

// The limit is on the record, not on its line ending: a record of exactly the limit is read, with
// \n or \r\n after it; one byte more is too large, and its size is the same with either ending.
TEST(StreamLimit, a_record_of_exactly_the_limit_is_read_whatever_its_line_ending) {
  Limits limits;
  limits.max_bytes = 40;
  const std::string at = record_of_size(40), over = record_of_size(41);
  struct Case {
    std::string text;
    std::string code;  // of the one record
    std::string size;  // shown in a too-large message
  } cases[] = {
      {at + "\n", "-", ""},
      {at + "\r\n", "-", ""},
      {at, "-", ""},
      {at + "\r", "-", ""},
      {over + "\n", "SG_DOC_TOO_LARGE", "(41 bytes)"},
      {over + "\r\n", "SG_DOC_TOO_LARGE", "(41 bytes)"},
      {record_of_size(60) + "\r\n", "SG_DOC_TOO_LARGE", "(60 bytes)"},
  };
  for (const Case& c : cases) {
    Read r = read_text(c.text, "r.jsonl", limits);
    ASSERT_EQ(r.records.size(), 1u) << c.text;
    EXPECT_EQ(code_of(r.records[0]), c.code) << c.text << ": " << message_of(r.records[0]);
    EXPECT_NE(message_of(r.records[0]).find(c.size), std::string::npos) << message_of(r.records[0]);
  }
  // White space alone is a blank line at the limit too, and is skipped, as is a blank CRLF line.
  Read blank = read_text(std::string(40, ' ') + "\n\r\n" + at + "\n", "r.jsonl", limits);
  ASSERT_EQ(blank.records.size(), 1u);
  EXPECT_EQ(blank.records[0].line, 3);
}

// In a JSON list the limit is on each item's JSON text, from its first byte to its last: the white
// space around it is the list's layout (the last item of a pretty-printed list has a newline after
// it that the others do not).
TEST(StreamLimit, a_json_list_item_of_exactly_the_limit_is_read_wherever_it_stands) {
  Limits limits;
  limits.max_bytes = 40;
  const std::string at = record_of_size(40), over = record_of_size(41);
  Read r = read_text("[" + at + ",\n " + over + "]", "r.json", limits);
  ASSERT_EQ(r.records.size(), 2u);
  EXPECT_EQ(code_of(r.records[0]), "-") << message_of(r.records[0]);
  EXPECT_EQ(code_of(r.records[1]), "SG_DOC_TOO_LARGE");
  EXPECT_NE(message_of(r.records[1]).find("(41 bytes)"), std::string::npos) << message_of(r.records[1]);
  EXPECT_EQ(r.records[1].problem->source->line, 2);
  EXPECT_EQ(r.records[1].problem->source->column, 2);
  for (const std::string& text : {"[\n  " + at + ",\n  " + at + "\n]\n", "[" + at + " \t\r\n ,  " + at + "\r\n\t]"}) {
    Read pretty = read_text(text, "r.json", limits);
    ASSERT_EQ(pretty.records.size(), 2u) << text;
    for (const RequestRecord& rec : pretty.records) EXPECT_EQ(code_of(rec), "-") << text << ": " << message_of(rec);
  }
  Read last_over = read_text("[\n  " + at + ",\n  " + over + "\n]\n", "r.json", limits);
  ASSERT_EQ(last_over.records.size(), 2u);
  EXPECT_EQ(code_of(last_over.records[1]), "SG_DOC_TOO_LARGE");
  EXPECT_NE(message_of(last_over.records[1]).find("(41 bytes)"), std::string::npos) << message_of(last_over.records[1]);
  // Layout past the bytes the reader holds (the limit and one) is counted, not kept.
  const std::string spaced_inside = "{\"container_image\": \"" + std::string(30, 'a') + "\",    \"b\":    1}";
  struct Far {
    std::string item;
    std::string code, size;
  } far[] = {
      {at + std::string(100, ' '), "-", ""},
      {over + std::string(100, '\n'), "SG_DOC_TOO_LARGE", "(41 bytes)"},
      {record_of_size(60) + " \t\r\n", "SG_DOC_TOO_LARGE", "(60 bytes)"},
      // Layout inside the item, past what is held, is the item's: only the run at its end is not.
      {spaced_inside + "  ", "SG_DOC_TOO_LARGE", "(" + std::to_string(spaced_inside.size()) + " bytes)"},
  };
  for (const Far& f : far) {
    Read one = read_text("[" + f.item + "]", "r.json", limits);
    ASSERT_EQ(one.records.size(), 1u);
    EXPECT_EQ(code_of(one.records[0]), f.code) << message_of(one.records[0]);
    EXPECT_NE(message_of(one.records[0]).find(f.size), std::string::npos) << message_of(one.records[0]);
  }
  // White space inside a string is the item's own.
  const std::string spaced = "{\"container_image\":\"" + std::string(20, ' ') + "\"}";  // 42 bytes
  Read inside = read_text("[" + spaced + "\n]", "r.json", limits);
  ASSERT_EQ(inside.records.size(), 1u);
  EXPECT_EQ(code_of(inside.records[0]), "SG_DOC_TOO_LARGE");
  EXPECT_NE(message_of(inside.records[0]).find("(42 bytes)"), std::string::npos) << message_of(inside.records[0]);
}

// A YAML list is read whole, so its limit is the file's: over it, the one record says to write a
// long stream as JSON Lines, which has no such limit.
TEST(StreamLimit, a_yaml_list_over_the_limit_points_to_json_lines) {
  Limits limits;
  limits.max_bytes = 40;
  Read r = read_text("- {container_image: a}\n- {container_image: b}\n", "r.yaml", limits);
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_EQ(code_of(r.records[0]), "SG_DOC_TOO_LARGE");
  EXPECT_EQ(r.records[0].problem->hint, "write streams of any length as JSON Lines (one record per line)");
}

// A file is read in chunks of 256 KiB; a CRLF whose \r ends one chunk and whose \n starts the next
// is still one line ending.
TEST(StreamLimit, a_crlf_split_between_two_reads_is_one_line_ending) {
  const std::size_t chunk = 1 << 18;
  const std::string first = record_of_size(chunk - 1);  // its \r is the chunk's last byte
  const std::string path = testing::TempDir() + "sandgate_crlf_split.jsonl";
  {
    std::ofstream f(path, std::ios::binary);
    f << first << "\r\n" << record_of_size(30) << "\r\n";
  }
  StreamOptions o;
  o.limits.max_bytes = chunk - 1;
  std::string error;
  auto reader = RequestReader::open(path, o, &error);
  ASSERT_TRUE(reader) << error;
  EXPECT_EQ(reader->size_hint(), chunk - 1 + 2 + 30 + 2);
  Read r = read_reader(*reader, o.limits);
  std::remove(path.c_str());
  ASSERT_EQ(r.records.size(), 2u);
  EXPECT_EQ(code_of(r.records[0]), "-") << message_of(r.records[0]);
  EXPECT_EQ(code_of(r.records[1]), "-") << message_of(r.records[1]);
  EXPECT_EQ(r.records[1].line, 2);
  EXPECT_EQ(reader->bytes_read(), reader->size_hint());
}

// The JSON list scanner ends an item only at a , or ] outside strings and nesting; a NUL byte is
// an ordinary byte to it, so it reaches the JSON loader (SG_NUL_BYTE at its own column) or is text
// after the list, and never reads as the end of the input.
TEST(JsonListScanner, a_nul_byte_is_a_byte_not_the_end_of_the_input) {
  struct Case {
    std::string text;
    std::vector<std::string> codes;
    int column;  // of the last record's problem
    std::string message;
  } cases[] = {
      {std::string("[]\0", 3), {"SG_SYNTAX"}, 3, "text after the end of the list of records"},
      {std::string("[\0]", 3), {"SG_NUL_BYTE"}, 2, "NUL character"},
      {std::string("[{\"container_image\": \"\0\"}]", 26), {"SG_NUL_BYTE"}, 23, "NUL character"},
      {std::string("[{}, \0]", 7), {"-", "SG_NUL_BYTE"}, 6, "NUL character"},
      {"[{},", {"-", "SG_SYNTAX"}, 5, "the list of records is not closed with ]"},
      {"[{}, ", {"-", "SG_SYNTAX"}, 6, "the list of records is not closed with ]"},
  };
  for (const Case& c : cases) {
    Read r = read_text(c.text, "r.json");
    EXPECT_EQ(r.error, "");
    ASSERT_EQ(r.records.size(), c.codes.size()) << c.message;
    for (std::size_t i = 0; i < c.codes.size(); ++i) {
      EXPECT_EQ(code_of(r.records[i]), c.codes[i]) << c.message << ": " << message_of(r.records[i]);
    }
    const RequestRecord& last = r.records.back();
    ASSERT_TRUE(last.problem && last.problem->source) << c.message;
    EXPECT_EQ(last.problem->source->column, c.column) << c.message;
    EXPECT_NE(last.problem->message.find(c.message), std::string::npos) << last.problem->message;
  }
}

// A YAML list is read whole; when it does not parse, the parser's own diagnostic (with its
// line:column) is the one record, not a generic "could not be read" and not an empty stream.
TEST(YamlListLoad, a_list_that_does_not_parse_is_one_record_with_the_parsers_diagnostic) {
  Read r = read_text("- {container_image: a}\n- {container_image: [}\n", "r.yaml");
  EXPECT_EQ(r.error, "");
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_EQ(code_of(r.records[0]), "SG_SYNTAX");
  ASSERT_TRUE(r.records[0].problem->source);
  EXPECT_EQ(r.records[0].problem->source->line, 2);
  EXPECT_EQ(r.records[0].line, 2);
  EXPECT_NE(message_of(r.records[0]).find("the YAML is malformed"), std::string::npos) << message_of(r.records[0]);
}

// A directory opens, but is refused by what it is before any read fails on it.
TEST(StreamOpen, a_directory_is_refused_by_what_it_is) {
  std::string error;
  EXPECT_FALSE(RequestReader::open(testing::TempDir(), {}, &error));
  EXPECT_EQ(error, "cannot read " + testing::TempDir() + ": it is a directory");
}

// A source that fails under the reader: reading ends, the reader's error says why, and no record is
// made of what the failure cut off. A pipe's write end on standard input fails the first read
// (EBADF): at detection when the format is sniffed, at the first record when it is given.
TEST(StreamSourceErrors, a_failing_first_read_is_the_readers_error) {
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0);
  {
    OnStdin swap(ends[1]);
    std::string error;
    EXPECT_FALSE(RequestReader::open("-", {}, &error));
    EXPECT_EQ(error, "cannot read standard input: Bad file descriptor");
    for (StreamFormat f : {StreamFormat::json_lines, StreamFormat::json_list, StreamFormat::yaml_list}) {
      StreamOptions o;
      o.format = f;
      auto reader = RequestReader::open("-", o, &error);
      ASSERT_TRUE(reader) << to_string(f);
      Read r = read_reader(*reader);
      EXPECT_TRUE(r.records.empty()) << to_string(f);
      EXPECT_EQ(r.error, "cannot read standard input: Bad file descriptor") << to_string(f);
    }
  }
  ::close(ends[0]);
  ::close(ends[1]);
}

// A socket whose peer closed with data unread fails with ECONNRESET once the data sent before is
// read: the records before the failure are delivered, then the error.
TEST(StreamSourceErrors, a_source_failing_after_some_records_ends_the_stream_with_its_error) {
  struct Case {
    StreamFormat format;
    std::string text;
    std::size_t records;
  } cases[] = {
      {StreamFormat::auto_detect, "{}\n{}\n", 2},
      {StreamFormat::json_lines, "{}\n{}", 1},  // a last line cut by the failure is not a record...
      {StreamFormat::json_list, "[{}, {}", 1},  // ...nor is a last item
      {StreamFormat::json_list, "[{}, {}]", 2},  // the failure comes after the ], where the end is checked
      {StreamFormat::json_list, "[{}", 0},
      {StreamFormat::yaml_list, "- {}\n- {}\n", 0},  // read whole, so nothing
  };
  for (const Case& c : cases) {
    int ends[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, ends), 0);
    write_all(ends[0], "x");  // left unread by the peer: closing the peer then resets the connection
    write_all(ends[1], c.text);
    ::close(ends[1]);
    {
      OnStdin swap(ends[0]);
      StreamOptions o;
      o.format = c.format;
      std::string error;
      auto reader = RequestReader::open("-", o, &error);
      ASSERT_TRUE(reader) << error;
      Read r = read_reader(*reader);
      EXPECT_EQ(r.records.size(), c.records) << c.text;
      for (const RequestRecord& rec : r.records) EXPECT_TRUE(rec.readable()) << c.text << ": " << message_of(rec);
      EXPECT_EQ(r.error, "cannot read standard input: Connection reset by peer") << c.text;
      PendingRecord after;
      EXPECT_FALSE(reader->next(after)) << "the stream stays ended: " << c.text;
    }
    ::close(ends[0]);
  }
}

// A signal that interrupts a blocked read (a handler installed without SA_RESTART, as a host
// process may) is not an I/O error: the read is retried and the records arrive.
TEST(StreamSourceErrors, an_interrupted_read_is_retried) {
  struct sigaction quiet = {}, old = {};
  quiet.sa_handler = [](int) {};
  sigemptyset(&quiet.sa_mask);
  quiet.sa_flags = 0;
  ASSERT_EQ(::sigaction(SIGUSR1, &quiet, &old), 0);
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0);
  const std::string text = "{}\n{\"id\": \"b\", \"sandbox\": {}}\n";
  {
    OnStdin swap(ends[0]);
    StreamOptions o;
    o.format = StreamFormat::json_lines;  // no detection read: the first read is the one interrupted
    std::string error;
    auto reader = RequestReader::open("-", o, &error);
    ASSERT_TRUE(reader) << error;
    pthread_t reading = ::pthread_self();
    std::thread writer([&] {
      // The reader is blocked in read() by now; if it is not yet, the signal interrupts nothing and
      // the test still holds.
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      ::pthread_kill(reading, SIGUSR1);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      write_all(ends[1], text);
      ::close(ends[1]);
    });
    PendingRecord first;
    ASSERT_TRUE(reader->next(first)) << reader->error();
    EXPECT_EQ(reader->bytes_read(), 3u) << "the first line and its newline";
    EXPECT_EQ(reader->size_hint(), 0u) << "a pipe's size is not known";
    Read r = read_reader(*reader);
    writer.join();
    EXPECT_EQ(r.error, "");
    ASSERT_EQ(r.records.size(), 1u);
    EXPECT_EQ(r.records[0].id, "b");
    EXPECT_EQ(reader->bytes_read(), text.size());
  }
  ::close(ends[0]);
  ::sigaction(SIGUSR1, &old, nullptr);
}

// A UTF-8 byte order mark before the first record is skipped whether the format is detected or
// given: with the format given, nothing has been read when the JSON list looks for the mark.
TEST(StreamOpen, a_byte_order_mark_is_skipped_when_the_format_is_given_too) {
  struct Case {
    const char* file;
    StreamFormat format;
    const char* text;
  } cases[] = {
      {"sandgate_bom_list", StreamFormat::json_list, "\xEF\xBB\xBF[{}, {}]"},
      {"sandgate_bom_list.json", StreamFormat::auto_detect, "\xEF\xBB\xBF[{}, {}]"},
      {"sandgate_bom_lines", StreamFormat::json_lines, "\xEF\xBB\xBF{}\n{}\n"},
      {"sandgate_bom_yaml", StreamFormat::yaml_list, "\xEF\xBB\xBF- {}\n- {}\n"},
  };
  for (const Case& c : cases) {
    const std::string path = testing::TempDir() + c.file;
    {
      std::ofstream f(path, std::ios::binary);
      f << c.text;
    }
    StreamOptions o;
    o.format = c.format;
    std::string error;
    auto reader = RequestReader::open(path, o, &error);
    ASSERT_TRUE(reader) << error;
    Read r = read_reader(*reader);
    std::remove(path.c_str());
    EXPECT_EQ(r.error, "") << c.file;
    ASSERT_EQ(r.records.size(), 2u) << c.file;
    for (const RequestRecord& rec : r.records) EXPECT_TRUE(rec.readable()) << c.file << ": " << message_of(rec);
  }
}

// Standard input redirected from a file (`--requests - < big.jsonl`) has a size, for the progress
// bar: what is left of the file from where the shell left it.
TEST(StreamOpen, standard_input_from_a_file_has_the_size_left_to_read) {
  const std::string path = testing::TempDir() + "sandgate_stdin_file.jsonl";
  const std::string skipped = "{\"id\": \"already read\"}\n", text = "{}\n{\"id\": \"b\", \"sandbox\": {}}\n";
  {
    std::ofstream f(path, std::ios::binary);
    f << skipped << text;
  }
  int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::lseek(fd, static_cast<off_t>(skipped.size()), SEEK_SET), static_cast<off_t>(skipped.size()));
  {
    OnStdin swap(fd);
    std::string error;
    auto reader = RequestReader::open("-", {}, &error);
    ASSERT_TRUE(reader) << error;
    EXPECT_EQ(reader->name(), "<stdin>");
    EXPECT_EQ(reader->size_hint(), text.size());
    PendingRecord first;
    ASSERT_TRUE(reader->next(first));
    EXPECT_EQ(reader->bytes_read(), 3u);
    Read r = read_reader(*reader);
    ASSERT_EQ(r.records.size(), 1u);
    EXPECT_EQ(r.records[0].id, "b");
    EXPECT_EQ(reader->bytes_read(), reader->size_hint());
  }
  ::close(fd);
  std::remove(path.c_str());
}

// A JSON Lines record cut short is likely one written over several lines, and its hint says so; a
// JSON list item is not a line, and one cut short is a text cut short, whatever lines it spans.
TEST(StreamHints, only_a_json_lines_record_is_told_that_records_are_one_line) {
  struct Case {
    std::string text, name, hint;
  } cases[] = {
      {"{\"container_image\": \"a\"\n", "r.jsonl", "the line ends before its record does: a JSON Lines record is one line"},
      {"[{\"container_image\": \"a\"", "r.json", "the text ends before everything is closed: was it cut short? It needs }"},
      {"[\n  {\"container_image\": \"a\"\n", "r.json", "the text ends before everything is closed: was it cut short? It needs }"},
  };
  for (const Case& c : cases) {
    Read r = read_text(c.text, c.name);
    ASSERT_FALSE(r.records.empty()) << c.text;
    const RequestRecord& first = r.records[0];
    ASSERT_EQ(code_of(first), "SG_SYNTAX") << c.text;
    EXPECT_EQ(first.problem->hint.rfind(c.hint, 0), 0u) << c.text << "\n" << first.problem->hint;
  }
}

// Tabs and CRLF line endings between items are white space like spaces and LFs: each item is placed
// at its first character, and the white space after it is no part of it.
TEST(JsonListScanner, items_are_placed_past_tabs_and_crlf_line_endings) {
  Read r = read_text("[\r\n\t{\"container_image\": \"a\"} \t\r\n,\r\n\t\t3\r\n\t]\r\n", "r.json");
  EXPECT_EQ(r.error, "");
  ASSERT_EQ(r.records.size(), 2u);
  EXPECT_TRUE(r.records[0].readable()) << message_of(r.records[0]);
  EXPECT_EQ(r.records[0].line, 2);
  const Node* image = r.records[0].sandbox.root.find("container_image");
  ASSERT_NE(image, nullptr);
  EXPECT_EQ(image->mark.line, 2);
  EXPECT_EQ(image->mark.column, 22);
  EXPECT_EQ(code_of(r.records[1]), "SG_NOT_AN_OBJECT");
  EXPECT_EQ(r.records[1].line, 4);
  ASSERT_TRUE(r.records[1].problem->source);
  EXPECT_EQ(r.records[1].problem->source->line, 4);
  EXPECT_EQ(r.records[1].problem->source->column, 3);
}

// A list that ends inside a string: the string's white space is its own, and the loader's error
// stands where the text ends, after it.
TEST(JsonListScanner, an_item_cut_inside_a_string_keeps_its_white_space) {
  Read r = read_text("[{\"container_image\": \"a   ", "r.json");
  ASSERT_EQ(r.records.size(), 2u);
  EXPECT_EQ(code_of(r.records[0]), "SG_SYNTAX");
  ASSERT_TRUE(r.records[0].problem->source);
  EXPECT_EQ(r.records[0].problem->source->column, 27) << message_of(r.records[0]);
  EXPECT_EQ(message_of(r.records[1]), "the list of records is not closed with ]");
}

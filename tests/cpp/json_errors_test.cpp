// What a JSON syntax error is told: the hand-written and copied-from-Python mistakes each get the
// fix, at the place RapidJSON stopped.
#include <gtest/gtest.h>

#include "document/loaders.h"
#include "sandgate/document.h"

using namespace sandgate;

namespace {

struct Case {
  const char* text;
  int column;
  const char* hint;
};

const Diagnostic* syntax_error(const Document& d) {
  for (const auto& x : d.diagnostics) {
    if (x.code == Code::SYNTAX) return &x;
  }
  return nullptr;
}

// `c.text` loaded as JSON for `input` ("policy", or "requests" for a line of a JSON Lines stream)
// must be a syntax error at `c.column` with the hint `c.hint`.
// `role`: a whole document, or one line of a JSON Lines stream (as the stream reader loads it).
void expect_told(const Case& c, detail::TextRole role = detail::TextRole::document) {
  Document d = detail::load_text(c.text, Format::json, "t.json", "requests", Limits{}, role);
  const Diagnostic* e = syntax_error(d);
  ASSERT_NE(e, nullptr) << c.text;
  EXPECT_EQ(e->hint, c.hint) << c.text;
  ASSERT_TRUE(e->source) << c.text;
  EXPECT_EQ(e->source->column, c.column) << c.text << ": " << e->message;
}

}  // namespace

TEST(JsonErrors, each_common_mistake_is_told_its_fix) {
  const Case cases[] = {
      {R"({"a": 1,})", 9, "remove the comma before }: JSON allows no comma after the last member"},
      {R"({"a": [1, 2,]})", 13, "remove the comma before ]: JSON allows no comma after the last element"},
      {R"({'a': 1})", 2, "JSON strings take double quotes: write \"a\""},
      {R"({"a": 'x'})", 7, "JSON strings take double quotes: write \"x\""},
      {R"({a: 1})", 2, "quote the name: write \"a\""},
      {R"({"a": 1 "b": 2})", 9, "put a comma between the two members"},
      {R"({"a": [1 2]})", 10, "put a comma between the two elements"},
      {R"({"a": True})", 7, "write true: JSON's literals are lower case"},
      {R"({"a": None})", 7, "write null"},
      {R"({"a": NaN})", 7, "JSON has no NaN or Infinity: write a number, or null"},
      {R"({"a": -Infinity})", 8, "JSON has no NaN or Infinity: write a number, or null"},
      {"{\"a\": 1} // c", 10, "JSON has no comments: remove it (a YAML file may have # comments)"},
      {R"({"a": 1, /* c */ "b": 2})", 10, "JSON has no comments: remove it (a YAML file may have # comments)"},
      {"{\"a\": 1}\n{\"b\": 2}", 1, "a JSON document is one value; a request stream (--requests) takes one JSON value per line"},
      {R"({"a" 1})", 6, "put a ':' between the name and its value"},
      {R"({"a": .5})", 7, "write a digit before the point: 0.5"},
      {R"({"a": 01})", 8, "JSON numbers have no leading zeros"},
      {R"({"a": +1})", 7, "remove the +: JSON numbers have no plus sign"},
      {R"({"a": 1.})", 9, "write a digit after the point"},
      {"{\"a\": \"x\n\"}", 9, "close the string with \", or write the line break as \\n"},
      {"{\"a\": \"x\ty\"}", 9, "write it as an escape (\\t, or \\u followed by 4 hex digits)"},
      {R"({"image": python:3.11})", 11, "quote the string: write \"python:3.11\""},
      {R"({"a": [{"b": 1}})", 16, "this } closes nothing open here: the list open here needs ]"},
      {R"({"a": {"b": 1]})", 14, "this ] closes nothing open here: the object open here needs }"},
      {R"({"a": ["max_cpu": "1"]})", 17, "a name and its value inside [ ]: an object is written in { }"},
      {R"({"a": 1}})", 9, "this } closes nothing: remove it"},
      {R"({"max_memory": 8Gi})", 17, "quote the string: write \"8Gi\""},
      {R"({"a": [10.20.0.0/16]})", 13, "quote the string: write \"10.20.0.0/16\""},
      {R"({"a": [{"h": "*.pypi.org}, {"h": "x"}]})", 30,
       "is the closing quote of \"*.pypi.org\" missing? The string runs on to the next quote"},
      {R"({"a": "x\\" "b": 1})", 13, "put a comma between the two members"},  // an escaped backslash ends the string
      {R"({"a": "\u00zz"})", 8, "\\u needs 4 hex digits; a backslash itself is written \\\\"},
      {R"({"a":: 1})", 6, "remove the extra ':'"},
      // YAML in a file read as JSON.
      {"# a policy\ndisplay_name: x\n", 1,
       "this looks like YAML, which is read as JSON here (a file named .json, or the json format): name the file .yaml, or write it as JSON"},
      {"display_name: x\n", 1,
       "this looks like YAML, which is read as JSON here (a file named .json, or the json format): name the file .yaml, or write it as JSON"},
      {"---\na: 1\n", 2,
       "this looks like YAML, which is read as JSON here (a file named .json, or the json format): name the file .yaml, or write it as JSON"},
      {"- a\n- b\n", 2,
       "this looks like YAML, which is read as JSON here (a file named .json, or the json format): name the file .yaml, or write it as JSON"},
      // One stray keystroke where a name, a value or a comma was expected.
      {R"({"a": 1, ."b": 2})", 10, "remove the stray \".\": the member's name follows it"},
      {R"({:"a": 1})", 2, "remove the stray \":\": the member's name follows it"},
      {R"({"a": ;"x"})", 7, "remove the stray \";\": the value follows it"},
      {R"({"a": 1*, "b": 2})", 8, "remove the stray \"*\""},
      {R"({"a": [1*]})", 9, "remove the stray \"*\""},
      {R"({=})", 2, "remove the stray \"=\""},
      {R"({"a": + 1})", 7, "remove the stray \"+\": the value follows it"},
      {R"({"a": [1,, 2]})", 10, "remove the extra comma"},
      {R"({, "a": 1})", 2, "remove the extra comma"},
      {R"({"a": })", 7, "a value is missing after the ':': write one, or null"},
      {R"({"a": 1, {"b": 2}})", 10, "a member's name goes before this value: \"name\": {…"},
      // Cut short: what is missing at the end.
      {R"({"a": {"b": [1, {"c": 2)", 24, "the text ends before everything is closed: was it cut short? It needs }]}} at the end"},
      // Brackets inside a string are not counted.
      {"{\"a\": {\"b\": \"]{\"\n", 1, "the text ends before everything is closed: was it cut short? It needs }} at the end"},
      {R"({"a": [1,)", 10, "the text ends where a value should follow: was it cut short?"},
      {R"({"a": "x)", 9, "close the string with \" (the text ends inside it: was it cut short?)"},
      {R"({"a": "\x41"})", 8, "JSON's escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\u followed by 4 hex digits"},
  };
  for (const Case& c : cases) expect_told(c);
}

TEST(JsonErrors, a_raw_line_break_in_a_string_is_named_not_called_an_escape) {
  Document d = load_document("{\"a\": \"x\n\"}", Format::json, "t.json", "policy");
  const Diagnostic* e = syntax_error(d);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->message, "the JSON is malformed: a string runs to the end of its line (JSON strings hold no raw line break)");
}

TEST(JsonErrors, an_error_with_no_common_cause_keeps_rapidjsons_words_alone) {
  Document d = load_document(R"({"a": @})", Format::json, "t.json", "policy");
  const Diagnostic* e = syntax_error(d);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->message, "the JSON is malformed: Invalid value.");
  EXPECT_EQ(e->hint, "");
}

// A record of a JSON Lines stream is one line: a pretty-printed object (jq without -c) breaks into
// lines that each fail, and each is told why. The same text as a whole document is not.
TEST(JsonErrors, the_lines_of_a_record_written_over_several_lines_are_told_so) {
  const Case lines[] = {
      {"{", 2,
       "the line ends before its record does: a JSON Lines record is one line (jq -c writes them so), and this one may be "
       "written over several; as it stands the line needs } at the end"},
      {R"(  "id": "a",)", 7,
       "this line looks like one member of an object written over several lines: a JSON Lines record is one line (jq -c "
       "writes them so)"},
      {"}", 1, "this } closes something begun on an earlier line: a JSON Lines record is one line (jq -c writes them so)"},
  };
  for (const Case& c : lines) expect_told(c, detail::TextRole::json_line);
  // A stray } in a document, and a document cut short, read as what they are.
  Document stray_doc = load_document("}", Format::json, "t.json", "policy");
  const Diagnostic* stray = syntax_error(stray_doc);
  ASSERT_NE(stray, nullptr);
  EXPECT_EQ(stray->message, "the JSON is malformed: a value cannot start with \"}\"");
  EXPECT_EQ(stray->hint, "this } closes nothing: remove it");
  // A multi-line text given as one record (a checkMany string item) is whole: cut short, not split.
  Document cut_doc =
      detail::load_text("{\n  \"id\": \"a\",\n", Format::json, "<records>", "requests", Limits{}, detail::TextRole::json_line);
  const Diagnostic* cut = syntax_error(cut_doc);
  ASSERT_NE(cut, nullptr);
  EXPECT_EQ(cut->hint, "the text ends where a value should follow: was it cut short?");
}

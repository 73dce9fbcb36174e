#include "document/json_errors.h"

#include <algorithm>
#include <string>

#include "util/rapidjson.h"
#include "util/text.h"

namespace sandgate::detail {
namespace {

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '$';
}

// The word (letters, digits, _ - $) that starts at `offset`, at most 64 bytes.
std::string_view word_at(std::string_view text, std::size_t offset) {
  std::size_t end = offset;
  while (end < text.size() && end - offset < 64 && is_word_char(text[end])) ++end;
  return text.substr(offset, end - offset);
}

// The last character before `offset` that is not white space, or 0.
char before(std::string_view text, std::size_t offset) {
  for (std::size_t i = std::min(offset, text.size()); i > 0; --i) {
    if (!is_blank_or_break(text[i - 1])) return text[i - 1];
  }
  return 0;
}

std::string literal_hint(std::string_view word) {
  if (word == "True" || word == "TRUE") return "write true: JSON's literals are lower case";
  if (word == "False" || word == "FALSE") return "write false: JSON's literals are lower case";
  if (word == "None" || word == "Null" || word == "NULL" || word == "nil" || word == "undefined") return "write null";
  if (word == "NaN" || word == "Infinity" || word == "inf" || word == "nan") {
    return "JSON has no NaN or Infinity: write a number, or null";
  }
  return {};
}

// What closes the objects and lists still open at the end of `text` ("}]}"), in order; "" when
// more than 16 are open or the text ends inside a string.
std::string closers_needed(std::string_view text) {
  std::string open;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    if (in_string) {
      if (ch == '\\') ++i;
      else if (ch == '"') in_string = false;
    } else if (ch == '"') {
      in_string = true;
    } else if (ch == '{' || ch == '[') {
      open += ch == '{' ? '}' : ']';
    } else if ((ch == '}' || ch == ']') && !open.empty() && open.back() == ch) {
      open.pop_back();
    }
  }
  if (in_string || open.size() > 16) return {};
  return std::string(open.rbegin(), open.rend());
}

// A value written without its quotes (`"image": python:3.11`): up to the next , ] } or line
// end, at most 64 bytes; "" when it runs on past that.
std::string_view unquoted_value_at(std::string_view text, std::size_t offset) {
  std::size_t end = offset;
  while (end < text.size() && end - offset <= 64 && text[end] != ',' && text[end] != ']' && text[end] != '}' &&
         text[end] != '\n' && text[end] != '\r') {
    ++end;
  }
  if (end - offset > 64) return {};
  while (end > offset && is_blank_or_break(text[end - 1])) --end;
  return text.substr(offset, end - offset);
}

// The text of the string that ends right before `offset` (white space between allowed), between
// its quotes; "" when no string ends there.
std::string_view string_before(std::string_view text, std::size_t offset) {
  std::size_t q = std::min(offset, text.size());
  while (q > 0 && is_blank_or_break(text[q - 1])) --q;
  if (q == 0 || text[q - 1] != '"') return {};
  std::size_t close = q - 1;
  for (std::size_t i = close; i > 0; --i) {
    if (text[i - 1] != '"') continue;
    std::size_t backslashes = 0;
    while (i - 1 >= backslashes + 1 && text[i - 2 - backslashes] == '\\') ++backslashes;
    if (backslashes % 2 == 0) return text.substr(i, close - i);
  }
  return {};
}

// A number followed by more than a number holds (`8Gi`, `10.20.0.0/16`): a string written without
// its quotes. The value from where the number starts, or "".
std::string_view unquoted_after_number(std::string_view text, std::size_t offset) {
  std::size_t start = offset;
  while (start > 0 && ((text[start - 1] >= '0' && text[start - 1] <= '9') || text[start - 1] == '.' || text[start - 1] == '-')) --start;
  if (start == offset) return {};
  return unquoted_value_at(text, start);
}

// A character that starts no JSON token (`.`, `\\`, `*`, `;`, …) where the token that was expected
// comes right after it (white space between allowed): one stray keystroke. `'` and `/` have
// hints of their own, a `+` before a number too.
bool stray_before(std::string_view text, std::size_t offset, std::string_view expected_next, char also_stray = 0) {
  constexpr std::string_view k_starts_nothing = ".\\*+;='~^!?%&|<>@#`/";
  if (offset >= text.size()) return false;
  if (k_starts_nothing.find(text[offset]) == std::string_view::npos && text[offset] != also_stray) return false;
  std::size_t i = offset + 1;
  while (i < text.size() && is_blank_or_break(text[i])) ++i;
  return i < text.size() && expected_next.find(text[i]) != std::string_view::npos;
}

std::string remove_stray(char c, std::string_view what_follows) {
  return "remove the stray " + shown_text(std::string_view(&c, 1)) + std::string(what_follows);
}

// The first token of a YAML document that no JSON document starts with.
bool looks_like_yaml_start(std::string_view text, std::size_t offset) {
  if (offset >= text.size()) return false;
  char c = text[offset];
  if (c == '#' || (c == '-' && offset + 1 < text.size() && (text[offset + 1] == ' ' || text[offset + 1] == '-'))) return true;
  std::string_view word = word_at(text, offset);
  std::size_t after = offset + word.size();
  return !word.empty() && after < text.size() && text[after] == ':' &&
         (after + 1 == text.size() || is_blank_or_break(text[after + 1]));
}

constexpr std::string_view k_value_start = "\"{[-0123456789tfn";

constexpr std::string_view k_one_line = "a JSON Lines record is one line (jq -c writes them so)";

// The same mistakes in one line of a JSON Lines stream, where the likeliest cause is a record
// written over several lines; "" when the error does not look like that.
std::string explain_stream_line(std::string_view text, std::size_t offset, rapidjson::ParseErrorCode code, bool at_end) {
  const char c = offset < text.size() ? text[offset] : '\0';
  if (at_end && code != rapidjson::kParseErrorStringMissQuotationMark) {
    std::string closers = closers_needed(text);
    return "the line ends before its record does: " + std::string(k_one_line) + ", and this one may be written over several" +
           (closers.empty() ? "" : "; as it stands the line needs " + closers + " at the end");
  }
  if (code == rapidjson::kParseErrorDocumentRootNotSingular && c == ':') {
    return "this line looks like one member of an object written over several lines: " + std::string(k_one_line);
  }
  if ((code == rapidjson::kParseErrorDocumentEmpty || code == rapidjson::kParseErrorDocumentRootNotSingular) &&
      (c == '}' || c == ']')) {
    return std::string("this ") + c + " closes something begun on an earlier line: " + std::string(k_one_line);
  }
  return {};
}

std::string explain(std::string_view text, std::size_t offset, rapidjson::ParseErrorCode code, bool stream_line) {
  const char c = offset < text.size() ? text[offset] : '\0';
  const char prev = before(text, offset);
  const bool at_comment = c == '/' && offset + 1 < text.size() && (text[offset + 1] == '/' || text[offset + 1] == '*');
  if (at_comment) return "JSON has no comments: remove it (a YAML file may have # comments)";
  // YAML where JSON was expected (a YAML file named .json): a `#` comment, `key:` or `- item` first.
  std::size_t first = 0;
  while (first < text.size() && is_blank_or_break(text[first])) ++first;
  // (RapidJSON reads a first `-` as a number's sign and stops after it.)
  if (!stream_line && (prev == 0 || (offset == first + 1 && text[first] == '-')) && looks_like_yaml_start(text, first)) {
    return "this looks like YAML, which is read as JSON here (a file named .json, or the json format): name the file "
           ".yaml, or write it as JSON";
  }
  // Only white space left: the text was cut short (a truncated file, a half-pasted object).
  bool at_end = true;
  for (std::size_t i = offset; i < text.size() && at_end; ++i) at_end = is_blank_or_break(text[i]);
  if (stream_line) {
    if (std::string hint = explain_stream_line(text, offset, code, at_end); !hint.empty()) return hint;
  }
  if (at_end && code != rapidjson::kParseErrorDocumentEmpty && code != rapidjson::kParseErrorStringMissQuotationMark) {
    if (prev == ':' || prev == ',' || prev == '[') return "the text ends where a value should follow: was it cut short?";
    std::string closers = closers_needed(text);
    return closers.empty() ? "the text ends in the middle of the document: was it cut short?"
                           : "the text ends before everything is closed: was it cut short? It needs " + closers + " at the end";
  }
  switch (code) {
    case rapidjson::kParseErrorDocumentEmpty:  // a document that starts with } or ]
      if (c == '}' || c == ']') return std::string("this ") + c + " closes nothing: remove it";
      return {};
    case rapidjson::kParseErrorObjectMissName:
    case rapidjson::kParseErrorValueInvalid: {
      if (prev == ',' && (c == '}' || c == ']')) {
        return std::string("remove the comma before ") + c + ": JSON allows no comma after the last " +
               (c == '}' ? "member" : "element");
      }
      if (c == '\'') {
        std::size_t close = text.find('\'', offset + 1);
        std::string_view inner = close == std::string_view::npos ? std::string_view() : text.substr(offset + 1, close - offset - 1);
        if (close != std::string_view::npos && inner.size() <= 64 && inner.find_first_of("\"\\\n") == std::string_view::npos) {
          return "JSON strings take double quotes: write " + quoted(inner);
        }
        return "JSON strings take double quotes";
      }
      std::string_view word = word_at(text, offset);
      if (code == rapidjson::kParseErrorObjectMissName && !word.empty()) return "quote the name: write " + quoted(word);
      if (std::string hint = literal_hint(word); !hint.empty()) return hint;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
        std::string_view value = unquoted_value_at(text, offset);
        return value.empty() ? "quote the string" : "quote the string: write " + quoted(value);
      }
      if (c == '.' && offset + 1 < text.size() && text[offset + 1] >= '0' && text[offset + 1] <= '9') {
        std::size_t end = offset + 1;
        while (end < text.size() && end - offset < 32 && text[end] >= '0' && text[end] <= '9') ++end;
        return "write a digit before the point: 0" + std::string(text.substr(offset, end - offset));
      }
      if (c == '+' && offset + 1 < text.size() && text[offset + 1] >= '0' && text[offset + 1] <= '9') {
        return "remove the +: JSON numbers have no plus sign";
      }
      if (c == ':' && prev == ':') return "remove the extra ':'";
      if (c == ',' && (prev == ',' || prev == '{' || prev == '[')) return "remove the extra comma";
      if ((c == '}' || c == ']') && prev == ':') return "a value is missing after the ':': write one, or null";
      if (code == rapidjson::kParseErrorObjectMissName) {
        if (c == '{' || c == '[') return "a member's name goes before this value: \"name\": " + std::string(1, c) + "…";
        // `{*}`: nothing but the stray character in an empty object.
        if (stray_before(text, offset, "\"", ':')) return remove_stray(c, ": the member's name follows it");
        if (stray_before(text, offset, "}")) return remove_stray(c, "");
      } else if (stray_before(text, offset, k_value_start)) {
        return remove_stray(c, ": the value follows it");
      }
      return {};
    }
    case rapidjson::kParseErrorObjectMissCommaOrCurlyBracket:
    case rapidjson::kParseErrorArrayMissCommaOrSquareBracket:
      if (prev == '0' && c >= '0' && c <= '9') return "JSON numbers have no leading zeros";
      if (code == rapidjson::kParseErrorArrayMissCommaOrSquareBracket && c == ':') {
        return "a name and its value inside [ ]: an object is written in { }";
      }
      if (c == '}' || c == ']') {
        return std::string("this ") + c + " closes nothing open here: the " +
               (code == rapidjson::kParseErrorObjectMissCommaOrCurlyBracket ? "object open here needs }" : "list open here needs ]");
      }
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '/' || c == ':') {
        if (std::string_view value = unquoted_after_number(text, offset); !value.empty()) {
          return "quote the string: write " + quoted(value);
        }
      }
      // `"*.pypi.org}, {"https_hostname"`: the string before ran on to the next quote.
      if (std::string_view before_here = string_before(text, offset);
          !before_here.empty() && before_here.find_first_of(",:{}[]") != std::string_view::npos) {
        return "is the closing quote of " + shown_text(before_here.substr(0, before_here.find_first_of(",:{}[]"))) +
               " missing? The string runs on to the next quote";
      }
      if (stray_before(text, offset, code == rapidjson::kParseErrorObjectMissCommaOrCurlyBracket ? ",}" : ",]")) {
        return remove_stray(c, "");
      }
      if (c == '"' || c == '{' || c == '[' || (c >= '0' && c <= '9') || c == '-' || c == 't' || c == 'f' || c == 'n') {
        return code == rapidjson::kParseErrorObjectMissCommaOrCurlyBracket ? "put a comma between the two members"
                                                                            : "put a comma between the two elements";
      }
      return {};
    case rapidjson::kParseErrorObjectMissColon:
      return "put a ':' between the name and its value";
    case rapidjson::kParseErrorDocumentRootNotSingular:
      if (c == '}' || c == ']') return std::string("this ") + c + " closes nothing: remove it";
      return "a JSON document is one value; a request stream (--requests) takes one JSON value per line";
    case rapidjson::kParseErrorStringUnicodeEscapeInvalidHex:
      return "\\u needs 4 hex digits; a backslash itself is written \\\\";
    case rapidjson::kParseErrorStringEscapeInvalid:
      if (offset < text.size() && static_cast<unsigned char>(c) < 0x20) return {};  // the message says it
      return "JSON's escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\u followed by 4 hex digits";
    case rapidjson::kParseErrorStringMissQuotationMark:
      return at_end ? "close the string with \" (the text ends inside it: was it cut short?)" : "close the string with \"";
    case rapidjson::kParseErrorNumberMissFraction:
      return "write a digit after the point";
    case rapidjson::kParseErrorNumberMissExponent:
      return "write the exponent's digits after the e";
    default:
      return {};
  }
}

}  // namespace

JsonExplanation explain_json_error(std::string_view text, std::size_t offset, rapidjson::ParseErrorCode code,
                                   bool stream_line) {
  JsonExplanation out;
  // RapidJSON calls a raw line break or tab inside a string an invalid escape.
  if (code == rapidjson::kParseErrorStringEscapeInvalid && offset < text.size() &&
      static_cast<unsigned char>(text[offset]) < 0x20) {
    out.message = text[offset] == '\n' || text[offset] == '\r'
                      ? "the JSON is malformed: a string runs to the end of its line (JSON strings hold no raw line break)"
                      : "the JSON is malformed: a string holds a raw control character";
    out.hint = text[offset] == '\n' || text[offset] == '\r' ? "close the string with \", or write the line break as \\n"
                                                            : "write it as an escape (\\t, or \\u followed by 4 hex digits)";
    return out;
  }
  out.message = code == rapidjson::kParseErrorDocumentEmpty
                    ? "the JSON is malformed: a value cannot start with " + shown_text(text.substr(offset, 1))
                    : std::string("the JSON is malformed: ") + rapidjson::GetParseError_En(code);
  out.hint = explain(text, offset, code, stream_line);
  return out;
}

}  // namespace sandgate::detail

#include "document/json_errors.h"

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

std::string explain(std::string_view text, std::size_t offset, rapidjson::ParseErrorCode code) {
  const char c = offset < text.size() ? text[offset] : '\0';
  const char prev = before(text, offset);
  const bool at_comment = c == '/' && offset + 1 < text.size() && (text[offset + 1] == '/' || text[offset + 1] == '*');
  if (at_comment) return "JSON has no comments: remove it (a YAML file may have # comments)";
  switch (code) {
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
      if (c == '.' && offset + 1 < text.size() && text[offset + 1] >= '0' && text[offset + 1] <= '9') {
        std::size_t end = offset + 1;
        while (end < text.size() && end - offset < 32 && text[end] >= '0' && text[end] <= '9') ++end;
        return "write a digit before the point: 0" + std::string(text.substr(offset, end - offset));
      }
      if (c == '+') return "remove the +: JSON numbers have no plus sign";
      return {};
    }
    case rapidjson::kParseErrorObjectMissCommaOrCurlyBracket:
    case rapidjson::kParseErrorArrayMissCommaOrSquareBracket:
      if (prev == '0' && c >= '0' && c <= '9') return "JSON numbers have no leading zeros";
      if (c == '"' || c == '{' || c == '[' || (c >= '0' && c <= '9') || c == '-' || c == 't' || c == 'f' || c == 'n') {
        return code == rapidjson::kParseErrorObjectMissCommaOrCurlyBracket ? "put a comma between the two members"
                                                                            : "put a comma between the two elements";
      }
      return {};
    case rapidjson::kParseErrorObjectMissColon:
      return "put a ':' between the name and its value";
    case rapidjson::kParseErrorDocumentRootNotSingular:
      return "a JSON document is one value; a request stream (--requests) takes one JSON value per line";
    case rapidjson::kParseErrorStringEscapeInvalid:
      if (offset < text.size() && static_cast<unsigned char>(c) < 0x20) return {};  // the message says it
      return "JSON's escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\u followed by 4 hex digits";
    case rapidjson::kParseErrorStringMissQuotationMark:
      return "close the string with \"";
    case rapidjson::kParseErrorNumberMissFraction:
      return "write a digit after the point";
    case rapidjson::kParseErrorNumberMissExponent:
      return "write the exponent's digits after the e";
    default:
      return {};
  }
}

}  // namespace

JsonExplanation explain_json_error(std::string_view text, std::size_t offset, rapidjson::ParseErrorCode code) {
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
  out.message = std::string("the JSON is malformed: ") + rapidjson::GetParseError_En(code);
  out.hint = explain(text, offset, code);
  return out;
}

}  // namespace sandgate::detail

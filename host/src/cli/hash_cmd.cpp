// `flowsteer hash` (DESIGN "The command line"): NIC and kernel flow hashes (spec 6).
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli_common.h"
#include "cli_validate.h"
#include "flowsteer/hash/hash.h"
#include "flowsteer/tuple.h"

namespace flowsteer::cli {

namespace {

struct BadArg : std::runtime_error {
  using std::runtime_error::runtime_error;
};

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// "6d5a56..." or "0x6d5a56...": an even number of hex digits (none only if allow_empty:
// the Toeplitz hash of zero input bytes is 0).
std::vector<uint8_t> parse_hex(const std::string& text, const std::string& what, bool allow_empty = false) {
  std::string t = text;
  if (t.size() >= 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t = t.substr(2);
  if (t.empty() && !allow_empty) throw BadArg(what + ": empty hex string");
  if (t.size() % 2) throw BadArg(what + ": odd number of hex digits in " + quote(text));
  std::vector<uint8_t> out(t.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) {
    int hi = hex_digit(t[2 * i]), lo = hex_digit(t[2 * i + 1]);
    if (hi < 0 || lo < 0) throw BadArg(what + ": " + quote(text) + " is not hex");
    out[i] = uint8_t(hi << 4 | lo);
  }
  return out;
}

uint64_t number(const std::string& text, const std::string& what, uint64_t max) {
  try {
    return parse_number(text, what, max);
  } catch (const std::invalid_argument& e) {
    throw BadArg(e.what());
  }
}

std::vector<uint32_t> parse_words(const std::string& text) {
  std::vector<uint32_t> words;
  size_t start = 0;
  for (;;) {
    size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? std::string::npos
                                                                       : comma - start);
    if (item.empty()) throw BadArg("--words: empty item in " + quote(text));
    words.push_back(uint32_t(number(item, "--words", 0xFFFFFFFFu)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return words;
}

uint32_t toeplitz_checked(const std::vector<uint8_t>& in, const hash::RssKey& key) {
  try {
    return hash::toeplitz(in, key);
  } catch (const std::invalid_argument& e) {
    throw BadArg(std::string("--key: ") + e.what());
  }
}

}  // namespace

int cmd_hash(int argc, char** argv) {
  CLI::App app{"Compute a NIC or kernel flow hash (spec 6); prints 0x%08x.", "hash"};
  std::string algo, key_hex, seed_s, src, dst, sport_s, dport_s, input_hex, words_s;
  app.add_option("--algo", algo,
                 "toeplitz | toeplitz-symxor | jhash-sym | jhash3 | jhash2")
      ->required();
  auto* o_key = app.add_option("--key", key_hex, "RSS key, hex (default: Microsoft 40-byte key)");
  auto* o_seed = app.add_option("--seed", seed_s, "jhash initval / hashrnd (default 0)");
  auto* o_src = app.add_option("--src", src, "source IPv4/IPv6 address");
  auto* o_dst = app.add_option("--dst", dst, "destination address (same family)");
  auto* o_sport = app.add_option("--sport", sport_s, "source port (with --dport)");
  auto* o_dport = app.add_option("--dport", dport_s, "destination port (with --sport)");
  auto* o_input = app.add_option("--input-hex", input_hex, "raw Toeplitz input bytes, hex");
  auto* o_words = app.add_option("--words", words_s, "comma-separated u32 words (jhash3: 3)");
  // CLI11 takes an empty value for a missing one; the Toeplitz hash of no bytes is 0, so
  // --input-hex "" is spelled "0x" (no digits) for it.
  std::vector<std::string> args(argv, argv + argc);
  for (size_t i = 1; i < args.size(); ++i)
    if ((args[i - 1] == "--input-hex" && args[i].empty())) args[i] = "0x";
    else if (args[i] == "--input-hex=") args[i] = "--input-hex=0x";
  if (!args.empty() && args.back() == "--input-hex=") args.back() = "--input-hex=0x";
  std::vector<char*> av;
  for (auto& a : args) av.push_back(a.data());
  if (auto rc = parse(app, int(av.size()), av.data())) return *rc;

  try {
    const bool toeplitz_algo = algo == "toeplitz" || algo == "toeplitz-symxor";
    const bool tuple_algo = toeplitz_algo || algo == "jhash-sym";
    const bool jhash_raw = algo == "jhash3" || algo == "jhash2";
    if (!tuple_algo && !jhash_raw)
      throw BadArg("unknown --algo " + quote(algo) +
                   "' (expected toeplitz, toeplitz-symxor, jhash-sym, jhash3 or jhash2)");
    auto reject = [&](CLI::Option* o, const char* name) {
      if (o->count()) throw BadArg(std::string(name) + " does not apply to --algo " + algo);
    };
    if (!toeplitz_algo) reject(o_key, "--key");
    if (toeplitz_algo) reject(o_seed, "--seed");
    if (algo != "toeplitz") reject(o_input, "--input-hex");
    if (!jhash_raw) reject(o_words, "--words");
    const uint32_t seed = o_seed->count() ? uint32_t(number(seed_s, "--seed", 0xFFFFFFFFu)) : 0;
    const hash::RssKey key = o_key->count() ? parse_hex(key_hex, "--key") : hash::microsoft_key();

    uint32_t h = 0;
    if (jhash_raw) {
      for (auto* o : {o_src, o_dst, o_sport, o_dport})
        if (o->count()) throw BadArg(o->get_name() + " does not apply to --algo " + algo);
      if (!o_words->count()) throw BadArg("--algo " + algo + " needs --words");
      const std::vector<uint32_t> w = parse_words(words_s);
      if (algo == "jhash3") {
        if (w.size() != 3)
          throw BadArg("--words: jhash3 takes exactly 3 words, got " + std::to_string(w.size()));
        h = hash::jhash_3words(w[0], w[1], w[2], seed);
      } else {
        h = hash::jhash2(w.data(), w.size(), seed);
      }
    } else if (o_input->count()) {
      for (auto* o : {o_src, o_dst, o_sport, o_dport})
        if (o->count()) throw BadArg(o->get_name() + " cannot be combined with --input-hex");
      h = toeplitz_checked(parse_hex(input_hex, "--input-hex", true), key);
    } else {
      if (!o_src->count() || !o_dst->count())
        throw BadArg("--algo " + algo + " needs --src and --dst" +
                     (algo == "toeplitz" ? " (or --input-hex)" : ""));
      if (o_sport->count() != o_dport->count())
        throw BadArg("--sport and --dport must be given together");
      const bool with_ports = o_sport->count() > 0;
      FlowTuple t, d;
      if (!parse_ip(src, t, true)) throw BadArg("--src: " + quote(src) + " is not an IP address");
      if (!parse_ip(dst, d, false)) throw BadArg("--dst: " + quote(dst) + " is not an IP address");
      if (t.family != d.family)
        throw BadArg("--src and --dst are of different address families");
      t.dst = d.dst;
      t.proto = kIpProtoTcp;
      if (with_ports) {
        t.sport = uint16_t(number(sport_s, "--sport", 65535));
        t.dport = uint16_t(number(dport_s, "--dport", 65535));
      }
      if (algo == "toeplitz")
        h = toeplitz_checked(hash::toeplitz_input(t, with_ports), key);
      else if (algo == "toeplitz-symxor")
        h = toeplitz_checked(hash::toeplitz_symxor_input(t, with_ports), key);
      else
        h = hash::jhash_sym_2010(t, seed);  // spec 6.1, lookup2 (no ports: ports 0)
    }
    std::printf("0x%08x\n", h);
    return kExitOk;
  } catch (const BadArg& e) {
    return usage_error("hash", e.what());
  }
}

}  // namespace flowsteer::cli

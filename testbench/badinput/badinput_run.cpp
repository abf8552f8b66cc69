// Runs one adversarial case of the badinput suite and checks its outcome exactly:
//   badinput_run [checks] -- PROGRAM ARGS...
// checks: --rc N (exit status, required)  --lines N (stderr lines; default 1 unless rc is 0,
// then 0)  --word W (stderr contains W; repeatable)  --stdout-has S  --stdout PATH (child's
// stdout goes there, e.g. /dev/full)  --stdin PATH  --env NAME=VALUE  --absent PATH (no such
// file afterwards)  --max-stderr BYTES  --dir DIR (replaces @DIR@ in every argument)
//   --same-stdout "ARGS" (PROGRAM with these space-separated arguments prints the same stdout)
// Arguments may spell \t \n \v \r \\ as escapes and @EMPTY@ for an empty argument (CMake
// cannot pass those).
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string decode(const std::string& a, const std::string& dir) {
  if (a == "@EMPTY@") return "";  // CMake drops an empty argument
  std::string out;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] == '\\' && i + 1 < a.size()) {
      const char c = a[++i];
      out += c == 't' ? '\t' : c == 'n' ? '\n' : c == 'v' ? '\v' : c == 'r' ? '\r' : c;
    } else if (a.compare(i, 5, "@DIR@") == 0) {
      out += dir;
      i += 4;
    } else {
      out += a[i];
    }
  }
  return out;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

struct Result {
  int rc = -1;
  std::string out, err;
};

Result run(const std::vector<std::string>& args, const std::string& stdout_path, const std::string& stdin_path,
           const std::vector<std::string>& env, const std::string& tmp) {
  const std::string out_file = tmp + ".out", err_file = tmp + ".err";
  const pid_t pid = fork();
  if (pid == 0) {
    const int o = open(stdout_path.empty() ? out_file.c_str() : stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int i = open(stdin_path.empty() ? "/dev/null" : stdin_path.c_str(), O_RDONLY);
    if (o < 0 || e < 0 || i < 0) _exit(127);
    dup2(o, 1), dup2(e, 2), dup2(i, 0);
    for (const auto& kv : env) putenv(const_cast<char*>(kv.c_str()));
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  Result r;
  r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  if (stdout_path.empty()) r.out = slurp(out_file);
  r.err = slurp(err_file);
  std::remove(out_file.c_str());
  std::remove(err_file.c_str());
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  int rc = -1, lines = -1;
  long max_stderr = -1;
  std::vector<std::string> words, env, absent, stdout_has;
  std::string stdout_path, stdin_path, dir, same;
  int i = 1;
  for (; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") break;
    if (i + 1 >= argc) {
      std::fprintf(stderr, "badinput_run: %s needs a value\n", a.c_str());
      return 2;
    }
    const std::string v = argv[++i];
    if (a == "--rc") rc = std::atoi(v.c_str());
    else if (a == "--lines") lines = std::atoi(v.c_str());
    else if (a == "--word") words.push_back(v);
    else if (a == "--stdout-has") stdout_has.push_back(v);
    else if (a == "--stdout") stdout_path = v;
    else if (a == "--stdin") stdin_path = v;
    else if (a == "--env") env.push_back(v);
    else if (a == "--absent") absent.push_back(v);
    else if (a == "--max-stderr") max_stderr = std::atol(v.c_str());
    else if (a == "--dir") dir = v;
    else if (a == "--same-stdout") same = v;
    else {
      std::fprintf(stderr, "badinput_run: unknown option %s\n", a.c_str());
      return 2;
    }
  }
  if (rc < 0 || i + 1 >= argc) {
    std::fprintf(stderr, "badinput_run: needs --rc N -- PROGRAM ARGS...\n");
    return 2;
  }
  if (lines < 0) lines = rc == 0 ? 0 : 1;
  std::vector<std::string> args;
  for (++i; i < argc; ++i) args.push_back(decode(argv[i], dir));
  stdin_path = decode(stdin_path, dir);
  stdout_path = decode(stdout_path, dir);
  for (auto& a : absent) a = decode(a, dir);
  const std::string tmp = (dir.empty() ? std::string("/tmp") : dir) + "/.run-" + std::to_string(getpid());

  for (const auto& a : absent) std::remove(a.c_str());
  const Result r = run(args, stdout_path, stdin_path, env, tmp);
  bool ok = true;
  auto fail = [&](const std::string& why) {
    std::cerr << "FAIL: " << why << "\n";
    ok = false;
  };
  if (r.rc != rc) fail("exit status " + std::to_string(r.rc) + ", expected " + std::to_string(rc));
  size_t nl = 0;
  for (char c : r.err) nl += c == '\n';
  const bool complete = r.err.empty() || r.err.back() == '\n';
  if (int(nl) != lines || !complete)
    fail("stderr has " + std::to_string(nl) + " line(s)" + (complete ? "" : " and an unterminated one") +
         ", expected " + std::to_string(lines));
  for (const auto& w : words)
    if (r.err.find(w) == std::string::npos) fail("stderr lacks '" + w + "'");
  for (const auto& w : stdout_has)
    if (r.out.find(w) == std::string::npos) fail("stdout lacks '" + w + "'");
  if (max_stderr >= 0 && long(r.err.size()) > max_stderr)
    fail("stderr is " + std::to_string(r.err.size()) + " bytes, more than " + std::to_string(max_stderr));
  for (const auto& a : absent) {
    struct stat st {};
    if (stat(a.c_str(), &st) == 0) fail("'" + a + "' was left behind");
  }
  if (!same.empty()) {
    std::vector<std::string> ref{args[0]};
    std::istringstream s(decode(same, dir));
    for (std::string w; s >> w;) ref.push_back(w);
    const Result m = run(ref, "", "", env, tmp + "r");
    if (m.rc != 0) fail("the reference run exited " + std::to_string(m.rc) + ": " + m.err);
    else if (m.out != r.out) fail("stdout differs from the reference run's");
  }
  if (!ok) {
    std::cerr << "--- stderr (" << r.err.size() << " bytes) ---\n" << r.err.substr(0, 2000) << "\n--- stdout ---\n"
              << r.out.substr(0, 2000) << "\n";
    return 1;
  }
  return 0;
}

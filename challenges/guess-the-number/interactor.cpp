// The interactor of guess-the-number (docs/challenges.md, "Interactive problems"): it reads
// "n secret" from its input file, tells the program n, answers each "? x" with "<", ">" or "=",
// and judges the final "! x". Exit codes are testlib's: 0 accepted, 1 wrong answer, 2 the dialogue
// broke the protocol, 3 the test itself is broken.
#include <fstream>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  if (argc < 2) return 3;
  std::ifstream input(argv[1]);
  long long n = 0, secret = 0;
  if (!(input >> n >> secret) || n < 1 || secret < 1 || secret > n) {
    std::cerr << "the test's input is not \"n secret\" with 1 <= secret <= n";
    return 3;
  }
  long long budget = 0;
  while ((1LL << budget) < n) ++budget;  // ceil(log2 n)
  std::cout << n << std::endl;
  long long asked = 0;
  std::string word;
  while (std::cin >> word) {
    long long x = 0;
    if (word != "?" && word != "!") {
      std::cerr << "expected \"? x\" or \"! x\", got \"" << word.substr(0, 20) << "\"";
      return 2;
    }
    if (!(std::cin >> x)) {
      std::cerr << "expected a number after \"" << word << "\"";
      return 2;
    }
    if (x < 1 || x > n) {
      std::cerr << "the number " << x << " is outside 1.." << n;
      return 1;
    }
    if (word == "!") {
      if (x != secret) {
        std::cerr << "you answered " << x << " after " << asked << " questions, but the number was " << secret;
        return 1;
      }
      std::cerr << "found " << secret << " in " << asked << " questions (at most " << budget << " allowed)";
      return 0;
    }
    ++asked;
    if (asked > budget) {
      std::cerr << "question " << asked << " is one too many: for n = " << n << " at most " << budget
                << " questions are allowed";
      return 1;
    }
    std::cout << (secret < x ? "<" : secret > x ? ">" : "=") << std::endl;
  }
  std::cerr << "your program stopped talking after " << asked << " questions without answering \"! x\"";
  return 1;
}

// The library beyond containers: <regex> (iteration, replace, icase,
// regex_error), <random> engines and distributions with fixed seeds,
// shuffle, seed_seq, <chrono> durations and rounding, system_clock
// formatting (put_time, get_time), <algorithm>/<numeric>, hashing.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <deque>
#include <functional>
#include <iomanip>
#include <iostream>
#include <list>
#include <map>
#include <numeric>
#include <random>
#include <regex>
#include <set>
#include <unordered_map>
#include <vector>
int main() {
  std::regex re(R"((\w+)@(\w+)\.com)");
  std::string text = "mail bob@example.com and alice@test.com now";
  for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it)
    std::cout << (*it)[1] << " at " << (*it)[2] << " pos " << it->position() << '\n';
  std::cout << std::regex_replace(text, re, "<$2:$1>") << '\n';
  std::cout << std::regex_match("abc123", std::regex("[a-z]+\\d+")) << std::regex_search("xyz", std::regex("^y"))
            << '\n';
  try {
    std::regex bad("(unclosed");
  } catch (const std::regex_error &e) {
    std::cout << "regex_error " << e.code() << ' ' << e.what() << '\n';
  }
  std::regex icase("HELLO", std::regex::icase | std::regex::ECMAScript);
  std::cout << std::regex_search("say hello", icase) << '\n';
  std::mt19937 g(42);
  std::mt19937_64 g64(7);
  for (int i = 0; i < 3; ++i)
    std::cout << g() << ' ' << g64() << '\n';
  std::minstd_rand mr(1);
  std::ranlux24 rl(3);
  std::knuth_b kb(5);
  std::cout << mr() << ' ' << rl() << ' ' << kb() << '\n';
  std::uniform_int_distribution<int> ui(1, 6);
  std::uniform_real_distribution<double> ur(0, 1);
  std::normal_distribution<double> nd(5, 2);
  std::poisson_distribution<int> pd(3.5);
  std::binomial_distribution<int> bd(10, 0.3);
  std::exponential_distribution<double> ed(1.5);
  std::gamma_distribution<double> gd(2, 2);
  std::bernoulli_distribution bern(0.3);
  std::discrete_distribution<int> dd({1, 2, 3, 4});
  std::lognormal_distribution<double> ln(0, 1);
  std::student_t_distribution<double> st(3);
  std::cout << std::setprecision(10);
  for (int i = 0; i < 4; ++i)
    std::cout << ui(g) << ' ' << ur(g) << ' ' << nd(g) << ' ' << pd(g) << ' ' << bd(g) << ' ' << ed(g) << ' ' << gd(g)
              << ' ' << bern(g) << ' ' << dd(g) << ' ' << ln(g) << ' ' << st(g) << '\n';
  std::vector<int> v(20);
  std::iota(v.begin(), v.end(), 0);
  std::shuffle(v.begin(), v.end(), g);
  for (int x : v)
    std::cout << x << ' ';
  std::cout << '\n';
  std::seed_seq seq{1, 2, 3};
  std::vector<unsigned> out(4);
  seq.generate(out.begin(), out.end());
  for (auto x : out)
    std::cout << x << ' ';
  std::cout << '\n';
  using namespace std::chrono;
  auto d = hours(1) + minutes(30) + seconds(15) + milliseconds(250);
  std::cout << duration_cast<seconds>(d).count() << ' ' << duration<double, std::ratio<3600>>(d).count() << ' '
            << d.count() << '\n';
  std::cout << duration_cast<minutes>(-seconds(90)).count() << ' ' << floor<minutes>(-seconds(90)).count() << ' '
            << round<seconds>(milliseconds(1500)).count() << '\n';
  system_clock::time_point tp{seconds(1700000000)};
  std::time_t t = system_clock::to_time_t(tp);
  std::tm tm = *std::gmtime(&t);
  std::cout << std::put_time(&tm, "%Y-%m-%d %H:%M:%S %a %b %j %U") << '\n';
  std::ostringstream os;
  os << std::put_time(&tm, "%c | %x | %X | %p");
  std::cout << os.str() << '\n';
  std::istringstream is("2024-02-29 13:45:00");
  std::tm t2{};
  is >> std::get_time(&t2, "%Y-%m-%d %H:%M:%S");
  std::cout << t2.tm_year << ' ' << t2.tm_mon << ' ' << t2.tm_mday << ' ' << is.fail() << '\n';
  auto now = steady_clock::now();
  auto later = steady_clock::now();
  std::cout << (later >= now) << ' ' << (system_clock::now().time_since_epoch().count() > 0) << '\n';
  std::vector<int> w{5, 3, 8, 1, 9, 2, 7};
  std::nth_element(v.begin(), v.begin() + 5, v.end());
  std::cout << v[5] << ' ';
  std::partial_sort(v.begin(), v.begin() + 3, v.end(), std::greater<>());
  std::cout << v[0] << v[1] << v[2] << ' ';
  std::cout << std::inner_product(w.begin(), w.end(), w.begin(), 0) << ' ' << std::gcd(84, 36) << ' ' << std::lcm(4, 6)
            << '\n';
  std::vector<int> ps(w.size());
  std::partial_sum(w.begin(), w.end(), ps.begin());
  std::exclusive_scan(w.begin(), w.end(), ps.begin(), 100);
  for (int x : ps)
    std::cout << x << ' ';
  std::cout << '\n';
  std::string s = "hello";
  do
    std::cout << s << ' ';
  while (std::next_permutation(s.begin(), s.begin() + 3));
  std::cout << '\n';
  std::unordered_map<std::string, int> um;
  for (auto &x : {"a", "bb", "a", "ccc", "bb", "a"})
    um[x]++;
  std::map<std::string, int> sorted(um.begin(), um.end());
  for (auto &[k, n] : sorted)
    std::cout << k << n << ' ';
  std::multiset<int> ms{3, 1, 3, 2};
  std::cout << ms.count(3) << ' ';
  std::list<int> l{3, 1, 2};
  l.sort();
  l.reverse();
  for (int x : l)
    std::cout << x;
  std::deque<int> dq;
  dq.push_front(1);
  dq.push_back(2);
  dq.push_front(0);
  std::cout << ' ' << dq[0] << dq[2] << '\n';
  std::hash<std::string> h;
  std::cout << (h("abc") == h(std::string("abc"))) << ' ' << std::hash<int>()(42) << '\n';
}

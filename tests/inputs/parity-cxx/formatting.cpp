// iostream formatting and number conversions: boolalpha, fill/width/
// adjustment, fixed/scientific/hexfloat at several precisions, showpos/
// showpoint/uppercase, bases, long double, stream extraction (bases,
// overflow, inf/nan), quoted; to_string, the sto* family and their
// invalid_argument/out_of_range, <charconv>, error codes and their messages.
#include <charconv>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
static void conversions();

int main() {
  conversions();
  std::cout << std::boolalpha << true << ' ' << false << std::noboolalpha << ' ' << true << '\n';
  std::cout << std::setfill('*') << std::setw(10) << 42 << '|' << std::left << std::setw(10) << "hi" << '|'
            << std::internal << std::setw(10) << -17 << '\n';
  std::cout << std::setfill(' ') << std::right;
  for (double d : {0.0, -0.0, 1.0 / 3, 2.0 / 3, 1e-10, 123456789.125, 1e21, 5e-324, 1.7976931348623157e308}) {
    std::cout << d << ' ' << std::fixed << d << ' ' << std::scientific << d << ' ' << std::hexfloat << d
              << std::defaultfloat << '\n';
  }
  std::cout << std::numeric_limits<double>::infinity() << ' ' << -std::numeric_limits<double>::infinity() << ' '
            << std::nan("") << '\n';
  std::cout << std::uppercase << std::hexfloat << 255.5 << ' ' << std::scientific << 1e-5 << std::nouppercase
            << std::defaultfloat << '\n';
  std::cout << std::showpos << 5 << ' ' << 0 << ' ' << 3.5 << std::noshowpos << '\n';
  std::cout << std::showpoint << 1.0 << ' ' << 100.0 << std::noshowpoint << ' ' << 1.0 << '\n';
  for (int p : {0, 1, 6, 17, 20})
    std::cout << std::setprecision(p) << M_PI << ' ' << std::fixed << M_PI << std::defaultfloat << '\n';
  std::cout << std::setprecision(6);
  long double ld = 1.0L / 3;
  std::cout << ld << ' ' << std::setprecision(25) << ld << std::setprecision(6) << '\n';
  float f = 0.1f;
  std::cout << f << ' ' << std::setprecision(10) << f << std::setprecision(6) << '\n';
  std::cout << std::hex << std::uppercase << std::showbase << 0xdeadbeef << ' ' << std::nouppercase << 255u << ' '
            << std::oct << 0 << ' ' << 8 << std::dec << std::noshowbase << '\n';
  std::cout << (unsigned long long)-1 << ' ' << std::numeric_limits<long long>::min() << ' ' << (short)-5 << ' '
            << (unsigned char)'A' << ' ' << (signed char)66 << '\n';
  std::cout << static_cast<const void *>(nullptr) << '\n';
  std::stringstream ss;
  ss << std::put_money(12345);
  std::cout << "money[" << ss.str() << "]\n";
  std::istringstream is("0x1F 017 42 3.25e2 true abc");
  int a, b, c;
  double d;
  bool bb;
  is >> std::hex >> a >> std::oct >> b >> std::dec >> c >> d >> std::boolalpha >> bb;
  std::cout << a << ' ' << b << ' ' << c << ' ' << d << ' ' << bb << ' ' << is.good() << '\n';
  std::istringstream is2("1e400 -1e400 1e-400 nan inf 0x1p3");
  double x;
  for (int i = 0; i < 6; ++i) {
    is2.clear();
    is2 >> x;
    std::cout << x << ':' << is2.fail() << ' ';
  }
  std::cout << '\n';
  std::istringstream is3("99999999999 -2147483649 4294967296");
  int i32;
  is3 >> i32;
  std::cout << i32 << ' ' << is3.fail() << '\n';
  is3.clear();
  is3 >> i32;
  std::cout << i32 << ' ' << is3.fail() << '\n';
  is3.clear();
  unsigned u;
  is3 >> u;
  std::cout << u << ' ' << is3.fail() << '\n';
  std::cout << std::setw(6) << std::quoted("q\"x") << '|' << '\n';
  std::cout.width(8);
  std::cout.fill('0');
  std::cout << 3.5 << '\n';
  std::cout << std::flush;
  std::cerr << "err " << 1.5 << std::endl;
  std::clog << "clog" << '\n';
  return 0;
}
template <class F> void tryit(const char *what, F f) {
  try {
    std::cout << what << " = " << f() << '\n';
  } catch (const std::invalid_argument &e) {
    std::cout << what << " invalid_argument: " << e.what() << '\n';
  } catch (const std::out_of_range &e) {
    std::cout << what << " out_of_range: " << e.what() << '\n';
  }
}
static void conversions() {
  std::cout << std::to_string(-0.0) << ' ' << std::to_string(1e300).size() << ' ' << std::to_string(3.14159f) << ' '
            << std::to_string(-123456789012LL) << ' ' << std::to_string(18446744073709551615ULL) << '\n';
  tryit("stoi(x)", [] { return std::stoi("x"); });
  tryit("stoi(99999999999)", [] { return std::stoi("99999999999"); });
  tryit("stol(-)", [] { return std::stol("-"); });
  tryit("stoul(-1)", [] { return std::stoul("-1"); });
  tryit("stoll(big)", [] { return std::stoll("99999999999999999999"); });
  tryit("stod(1e999)", [] { return std::stod("1e999"); });
  tryit("stod(1e-999)", [] { return std::stod("1e-999"); });
  tryit("stof(1e39)", [] { return std::stof("1e39"); });
  tryit("stod(abc)", [] { return std::stod("abc"); });
  tryit("stold(1.5L)", [] { return std::stold("1.5"); });
  tryit("stoi hex", [] {
    size_t p;
    int v = std::stoi("0x1Fz", &p, 16);
    return v * 100 + (int)p;
  });
  tryit("stoi base0", [] { return std::stoi("0755", nullptr, 0); });
  tryit("stod nan", [] { return std::stod("nan(123)"); });
  tryit("stod hex", [] { return std::stod("0x1.8p1"); });
  char buf[64];
  for (double d : {0.1, 1e300, -2.5, 123.0, 1.0 / 3}) {
    auto r = std::to_chars(buf, buf + sizeof buf, d);
    *r.ptr = 0;
    std::cout << buf << ' ';
    r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific, 3);
    *r.ptr = 0;
    std::cout << buf << ' ';
    r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::hex);
    *r.ptr = 0;
    std::cout << buf << ' ';
    r = std::to_chars(buf, buf + sizeof buf - 1, d, std::chars_format::fixed);
    if (r.ec == std::errc{})
      *r.ptr = 0;
    std::cout << (r.ec == std::errc{} ? buf : "ERR") << '\n';
  }
  auto r = std::to_chars(buf, buf + 3, 123456);
  std::cout << (r.ec == std::errc::value_too_large) << '\n';
  r = std::to_chars(buf, buf + sizeof buf, -255, 16);
  *r.ptr = 0;
  std::cout << buf << '\n';
  r = std::to_chars(buf, buf + sizeof buf, 255, 2);
  *r.ptr = 0;
  std::cout << buf << '\n';
  int v = 0;
  const char *s = "  12";
  auto fr = std::from_chars(s, s + 4, v);
  std::cout << (fr.ec == std::errc::invalid_argument) << ' ' << v << '\n';
  s = "99999999999";
  fr = std::from_chars(s, s + strlen(s), v);
  std::cout << (fr.ec == std::errc::result_out_of_range) << ' ' << (fr.ptr - s) << '\n';
  double d;
  s = "1.25e3xyz";
  auto fd = std::from_chars(s, s + strlen(s), d);
  std::cout << d << ' ' << (fd.ptr - s) << '\n';
  s = "1e500";
  fd = std::from_chars(s, s + strlen(s), d);
  std::cout << (fd.ec == std::errc::result_out_of_range) << '\n';
  s = "ff";
  fd = std::from_chars(s, s + 2, d, std::chars_format::hex);
  std::cout << d << '\n';
  float fl = 0;
  s = "3.4028236e38";
  auto ff = std::from_chars(s, s + strlen(s), fl);
  std::cout << (ff.ec == std::errc::result_out_of_range) << ' ' << fl << '\n';
  std::cout << std::make_error_code(std::errc::result_out_of_range).message() << '\n';
  std::cout << std::system_category().message(EPERM) << " | " << std::generic_category().message(9999) << '\n';
  try {
    throw std::system_error(ENOENT, std::system_category(), "opening");
  } catch (const std::system_error &e) {
    std::cout << e.what() << ' ' << e.code() << '\n';
  }
}

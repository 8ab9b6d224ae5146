// Wide streams and the C.UTF-8 locale from C++: std::locale, wcout
// imbued, wstring_convert (and its range_error), ctype<wchar_t>,
// put_time with wide formats, wide extraction, codecvt.
#include <codecvt>
#include <ctime>
#include <cwctype>
#include <iomanip>
#include <iostream>
#include <locale>
#include <sstream>
#include <string>
int main() {
  std::locale U("C.UTF-8");
  std::cout << U.name() << ' ' << (U == std::locale::classic()) << '\n';
  std::locale::global(U);
  std::wcout.imbue(U);
  std::wstring W = L"gr\u00fc\u00dfe \u20ac \u4e16\u754c";
  std::wcout << W << L' ' << W.size() << L'\n';
  std::wcout << std::setw(12) << std::setfill(L'\u00b7') << 42 << L'\n';
  std::wstring_convert<std::codecvt_utf8<wchar_t>> Conv;
  std::string Bytes = Conv.to_bytes(W);
  std::cout << Bytes << ' ' << Bytes.size() << ' ' << Conv.from_bytes("\xc3\xa9t\xc3\xa9").size() << '\n';
  try {
    Conv.from_bytes("\xff\xfe");
  } catch (const std::range_error &E) {
    std::cout << "range_error: " << E.what() << '\n';
  }
  auto &CT = std::use_facet<std::ctype<wchar_t>>(U);
  std::wcout << CT.toupper(L'\u00e9') << L' ' << CT.is(std::ctype_base::alpha, L'\u4e16') << L' '
             << std::iswalpha(L'\u00df') << L'\n';
  std::tm T{};
  T.tm_year = 124;
  T.tm_mon = 1;
  T.tm_mday = 29;
  T.tm_wday = 4;
  std::wostringstream WO;
  WO.imbue(U);
  WO << std::put_time(&T, L"%A %d %B %Y");
  std::wcout << WO.str() << L'\n';
  std::wistringstream WI(L"12 3.5 w\u00f6rd");
  int I;
  double D;
  std::wstring S;
  WI >> I >> D >> S;
  std::wcout << I + D << L' ' << S << L'\n';
  auto &CV = std::use_facet<std::codecvt<wchar_t, char, std::mbstate_t>>(U);
  std::cout << "max_length " << CV.max_length() << " encoding " << CV.encoding() << '\n';
  std::cout << std::use_facet<std::numpunct<char>>(U).decimal_point() << " collate "
            << std::use_facet<std::collate<char>>(U).compare("a", "a" + 1, "b", "b" + 1) << '\n';
}

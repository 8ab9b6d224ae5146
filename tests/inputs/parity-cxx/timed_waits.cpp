// Timed waits in a single thread: nothing can wake them, so each lasts out
// its timeout (futex waits with a relative or absolute timeout, on the
// monotonic or the real-time clock) and reports the timeout.
#include <chrono>
#include <condition_variable>
#include <future>
#include <iostream>
#include <mutex>
#include <shared_mutex>

using namespace std::chrono;
using namespace std::chrono_literals;

template <class Clock, class F> void timed(const char *What, typename Clock::duration Wait, F &&Body) {
  auto Start = Clock::now();
  auto Result = Body(Start + Wait);
  std::cout << What << ": " << Result << ", waited out " << (Clock::now() - Start >= Wait) << '\n';
}

int main() {
  std::mutex M;
  std::condition_variable CV;
  std::unique_lock<std::mutex> Lock(M);
  timed<steady_clock>("cv wait_for", 10ms, [&](auto) { return CV.wait_for(Lock, 10ms) == std::cv_status::timeout; });
  timed<steady_clock>("cv wait_until steady", 10ms,
                      [&](auto Until) { return CV.wait_until(Lock, Until) == std::cv_status::timeout; });
  timed<system_clock>("cv wait_until system", 10ms,
                      [&](auto Until) { return CV.wait_until(Lock, Until) == std::cv_status::timeout; });
  int Checks = 0;
  timed<steady_clock>("cv predicate", 10ms, [&](auto) { return CV.wait_for(Lock, 10ms, [&] { return ++Checks > 5; }); });
  std::cout << "predicate checked " << (Checks >= 2) << '\n';
  Lock.unlock();

  std::timed_mutex TM;
  TM.lock();
  timed<steady_clock>("timed_mutex try_lock_for", 10ms, [&](auto) { return !TM.try_lock_for(10ms); });
  timed<system_clock>("timed_mutex try_lock_until", 10ms, [&](auto Until) { return !TM.try_lock_until(Until); });
  TM.unlock();
  std::shared_timed_mutex SM;
  SM.lock();
  timed<steady_clock>("shared_timed_mutex try_lock_shared_for", 10ms,
                      [&](auto) { return !SM.try_lock_shared_for(10ms); });
  SM.unlock();

  std::promise<int> Never;
  std::future<int> F = Never.get_future();
  timed<steady_clock>("future wait_for", 10ms, [&](auto) { return F.wait_for(10ms) == std::future_status::timeout; });
  Never.set_value(7);
  std::cout << "future now ready: " << (F.wait_for(0s) == std::future_status::ready) << ' ' << F.get() << '\n';
  std::future<int> Deferred = std::async(std::launch::deferred, [] { return 42; });
  std::cout << "deferred: " << (Deferred.wait_for(1ms) == std::future_status::deferred) << ' ' << Deferred.get() << '\n';
}

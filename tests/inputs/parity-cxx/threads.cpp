// C++ threads: std::thread, std::mutex, std::condition_variable,
// std::async and std::future, std::atomic, thread_local objects constructed
// and destroyed in each thread. Output is ordered by joins (a thread prints
// only while the main thread waits for it).
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <future>
#include <mutex>
#include <numeric>
#include <queue>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

struct Tracer {
  std::string name;
  explicit Tracer(std::string N) : name(std::move(N)) { std::printf("construct %s\n", name.c_str()); }
  ~Tracer() { std::printf("destroy %s\n", name.c_str()); }
};

thread_local int PerThread = 5;
thread_local std::vector<int> Seen;

std::string describe(int Id) {
  thread_local Tracer T("tracer of thread " + std::to_string(Id));
  return T.name;
}

int main() {
  // std::thread and join, with a thread_local object each.
  for (int I = 1; I <= 3; ++I) {
    std::thread T([I] {
      std::printf("thread %d sees %d, names %s\n", I, PerThread, describe(I).c_str());
      PerThread = I;
    });
    T.join();
  }
  std::printf("main still sees %d\n", PerThread);

  // A mutex-protected total from several threads.
  std::mutex M;
  long Total = 0;
  std::vector<std::thread> Pool;
  for (int I = 0; I < 4; ++I)
    Pool.emplace_back([&, I] {
      for (int J = 0; J < 5000; ++J) {
        std::lock_guard<std::mutex> G(M);
        Total += I + 1;
      }
    });
  for (auto &T : Pool)
    T.join();
  std::printf("total %ld\n", Total);

  // A queue with a condition variable: one producer, two consumers.
  std::queue<int> Q;
  std::condition_variable Ready;
  bool Closed = false;
  std::atomic<long> Consumed{0};
  std::vector<std::thread> Consumers;
  for (int I = 0; I < 2; ++I)
    Consumers.emplace_back([&] {
      for (;;) {
        std::unique_lock<std::mutex> L(M);
        Ready.wait(L, [&] { return !Q.empty() || Closed; });
        if (Q.empty())
          return;
        int V = Q.front();
        Q.pop();
        L.unlock();
        Seen.push_back(V); // thread-local: never shared
        Consumed += V;
      }
    });
  for (int I = 1; I <= 1000; ++I) {
    {
      std::lock_guard<std::mutex> G(M);
      Q.push(I);
    }
    Ready.notify_one();
  }
  {
    std::lock_guard<std::mutex> G(M);
    Closed = true;
  }
  Ready.notify_all();
  for (auto &T : Consumers)
    T.join();
  std::printf("consumed %ld, main's own list has %zu\n", Consumed.load(), Seen.size());

  // std::async and futures, a value and an exception.
  auto Sum = std::async(std::launch::async, [] {
    std::vector<int> V(1000);
    std::iota(V.begin(), V.end(), 1);
    return std::accumulate(V.begin(), V.end(), 0L);
  });
  auto Fails = std::async(std::launch::async, []() -> int { throw std::runtime_error("from another thread"); });
  std::printf("async sum %ld\n", Sum.get());
  try {
    Fails.get();
  } catch (const std::exception &E) {
    std::printf("async threw: %s\n", E.what());
  }
  std::promise<std::string> P;
  std::future<std::string> F = P.get_future();
  std::thread Setter([&] { P.set_value("promised"); });
  std::printf("future: %s\n", F.get().c_str());
  Setter.join();

  // Lock-free counting and a spin on an atomic flag.
  std::atomic<int> Hits{0};
  std::atomic<bool> Go{false};
  std::vector<std::thread> Spinners;
  for (int I = 0; I < 3; ++I)
    Spinners.emplace_back([&] {
      while (!Go.load(std::memory_order_acquire))
        ; // spins until the main thread's store
      for (int J = 0; J < 10000; ++J)
        Hits.fetch_add(1, std::memory_order_relaxed);
    });
  Go.store(true, std::memory_order_release);
  for (auto &T : Spinners)
    T.join();
  std::printf("atomic hits %d\n", Hits.load());
  std::printf("main names %s\n", describe(0).c_str());
  return 0;
}

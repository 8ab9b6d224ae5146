// Clang's matrix types (-fenable-matrix): column-major loads and stores,
// transposes and products of matrices of several shapes and element types,
// instantiated from templates. The products unroll into long straight-line
// blocks of floating-point code (on i386, x87 arithmetic), as many as a
// translated block holds: the translator must not run out of temporaries.
#include <cstdio>

// Whole numbers from a linear congruential generator: the same on every
// arch, and small enough that every sum and product below is exact, so the
// x87's excess precision (i386 at -O0 and -O2 round differently) cannot
// change a digit.
static unsigned Seed = 12345;
static double nextValue() {
  Seed = Seed * 1103515245u + 12345u;
  return double((Seed >> 8) % 21); // 0-20: an unsigned element holds each
}

template <typename T, unsigned R, unsigned C> void transposeCheck() {
  T Src[R * C], Out[R * C];
  for (T &X : Src)
    X = T(nextValue());
  auto M = __builtin_matrix_column_major_load(Src, R, C, R);
  __builtin_matrix_column_major_store(__builtin_matrix_transpose(M), Out, C);
  double Sum = 0;
  for (unsigned I = 0; I < R * C; ++I)
    Sum += double(Out[I]) * (I % 7 + 1);
  std::printf("transpose %ux%u: %.6f\n", R, C, Sum);
}

template <typename T, unsigned R0, unsigned C0, unsigned C1> void multiplyCheck() {
  T A[R0 * C0], B[C0 * C1], Res[R0 * C1];
  for (T &X : A)
    X = T(nextValue());
  for (T &X : B)
    X = T(nextValue());
  auto MA = __builtin_matrix_column_major_load(A, R0, C0, R0);
  auto MB = __builtin_matrix_column_major_load(B, C0, C1, C0);
  __builtin_matrix_column_major_store(MA * MB, Res, R0);
  double Sum = 0;
  for (unsigned I = 0; I < R0 * C1; ++I)
    Sum += double(Res[I]) * (I % 5 + 1);
  std::printf("multiply %ux%ux%u: %.6f\n", R0, C0, C1, Sum);
}

template <typename T, unsigned N> using Square = T __attribute__((matrix_type(N, N)));

template <typename T, unsigned N> void elementwiseCheck() {
  Square<T, N> M, Id;
  for (unsigned I = 0; I < N; ++I)
    for (unsigned J = 0; J < N; ++J)
      M[I][J] = T(nextValue()), Id[I][J] = I == J;
  Square<T, N> R = (M + Id) * T(2) - M * Id;
  double Sum = 0;
  for (unsigned I = 0; I < N; ++I)
    for (unsigned J = 0; J < N; ++J)
      Sum += double(R[I][J]) * (I + 2 * J + 1);
  std::printf("elementwise %ux%u: %.6f\n", N, N, Sum);
}

int main() {
  transposeCheck<double, 3, 10>();
  transposeCheck<float, 31, 17>();
  transposeCheck<unsigned, 8, 7>();
  multiplyCheck<double, 3, 3, 3>();
  multiplyCheck<double, 7, 9, 11>();
  multiplyCheck<float, 16, 16, 16>();
  elementwiseCheck<int, 4>();
  elementwiseCheck<double, 6>();
  return 0;
}
